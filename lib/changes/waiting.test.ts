import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { AccountContext } from "@/lib/context";
import { NotFoundError } from "@/lib/core/errors";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { RECENT_CHANGES_RUNS } from "./schemas";
import { changesWaiting } from "./waiting";

// The site's changes waiting to be warmed, as the dashboard's Changes panel and GET /v1/sites/{siteId}/changes show them.

let handle: DatabaseHandle;
let ctx: AccountContext;
let other: AccountContext;

beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  ctx = { db: handle.db, accountId: (await findOrCreateUser(handle.db, "waiting@example.com")).user.accountId };
  other = { db: handle.db, accountId: (await findOrCreateUser(handle.db, "elsewhere@example.com")).user.accountId };
}, 60_000);

afterAll(async () => {
  await handle?.close();
});

type NewRun = Partial<typeof runs.$inferInsert> & { siteId: number };
const insertRun = async (run: NewRun) =>
  (
    await handle.db
      .insert(runs)
      .values({ accountId: ctx.accountId, kind: "warm", regions: ["fr"], status: "done", ...run })
      .returning({ id: runs.id })
  )[0]!.id;

describe("changesWaiting", () => {
  it("answers nothing waiting and no runs for a site without changes", async () => {
    const site = await createSite(ctx, { domain: "quiet.example.com" });
    expect(await changesWaiting(ctx, site.id)).toEqual({ waiting: null, recent: [], default_delay_seconds: 30 });
  });

  it("answers the pending changes run with its URLs and warm_at, and the last changes runs apart from it, newest first", async () => {
    const site = await createSite(ctx, { domain: "busy.example.com" });
    const older = [];
    for (let i = 0; i < RECENT_CHANGES_RUNS + 1; i++) {
      older.push(await insertRun({ siteId: site.id, trigger: "changes", sourceUrls: ["https://busy.example.com/a", "https://busy.example.com/b"], finishedAt: new Date() }));
    }
    const failed = await insertRun({ siteId: site.id, trigger: "changes", status: "failed", sourceUrls: ["https://busy.example.com/c"] });
    // Runs of the site that are not changes, and another site's changes, are not listed.
    await insertRun({ siteId: site.id, trigger: "api", status: "pending", sourceUrls: ["https://busy.example.com/z"] });
    const elsewhere = await createSite(ctx, { domain: "elsewhere.example.com" });
    await insertRun({ siteId: elsewhere.id, trigger: "changes", status: "pending", sourceUrls: ["https://elsewhere.example.com/"], openUntil: new Date() });
    const warmAt = new Date(Date.now() + 30_000);
    const pending = await insertRun({ siteId: site.id, trigger: "changes", status: "pending", sourceUrls: ["https://busy.example.com/new"], plannedCalls: 1, openUntil: warmAt });

    const answer = await changesWaiting(ctx, site.id);
    expect(answer.waiting).toMatchObject({ run_id: pending, urls: ["https://busy.example.com/new"], planned_calls: 1, warm_at: warmAt.toISOString() });
    expect(answer.recent.map((run) => run.run_id)).toEqual([failed, ...older.reverse()].slice(0, RECENT_CHANGES_RUNS));
    expect(answer.recent[0]).toMatchObject({ status: "failed", url_count: 1, finished_at: null });
    expect(answer.recent[1]).toMatchObject({ status: "done", url_count: 2 });
    expect(answer.recent[1]!.finished_at).not.toBeNull();
  });

  it("is another organization's 404", async () => {
    const site = await createSite(ctx, { domain: "mine.example.com" });
    await expect(changesWaiting(other, site.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
