import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, boosts, runs, sites } from "@/drizzle/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { listRuns } from "./service";
import { emptySummary } from "./summary";

// GET /v1/runs keeps the entries of finished runs between requests: a page shows what each run is now.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

const page = { limit: 20, offset: 0 };

describe("a page of runs", () => {
  it("shows a run as it is now: running, then finished, then finished again with other figures", async () => {
    const db = handle.db;
    const [account] = await db.insert(accounts).values({ name: "Tenant" }).returning();
    const [site] = await db.insert(sites).values({ accountId: account!.id, domain: "kept.test", validationToken: "t", validated: true }).returning();
    const [boost] = await db
      .insert(boosts)
      .values({ siteId: site!.id, name: "Nightly", sourceType: "sitemap", regions: ["fr"] })
      .returning();
    const [run] = await db
      .insert(runs)
      .values({ kind: "boost", siteId: site!.id, accountId: account!.id, boostId: boost!.id, regions: ["fr"], status: "running", plannedCalls: 10 })
      .returning();
    const [older] = await db
      .insert(runs)
      .values({
        kind: "boost",
        siteId: site!.id,
        accountId: account!.id,
        boostId: boost!.id,
        regions: ["fr"],
        status: "done",
        finishedAt: new Date(Date.now() - 60_000),
        summary: { ...emptySummary(), total_calls: 4 },
      })
      .returning();
    const shown = async () => (await listRuns({ db, accountId: account!.id }, {}, page)).data;

    expect((await shown()).map((r) => [r.id, r.status])).toEqual(
      [
        [older!.id, "done"],
        [run!.id, "running"],
      ].sort((a, b) => Number(b[0]) - Number(a[0])),
    );
    await db
      .update(runs)
      .set({ status: "done", finishedAt: new Date(Date.now() - 1_000), summary: { ...emptySummary(), total_calls: 10, cache_hits: 7 } })
      .where(eq(runs.id, run!.id));
    const finished = (await shown()).find((r) => r.id === run!.id)!;
    expect([finished.status, finished.summary.total_calls, finished.summary.cache_hits]).toEqual(["done", 10, 7]);
    expect((await shown()).find((r) => r.id === run!.id)).toEqual(finished);

    await db
      .update(runs)
      .set({ status: "failed", statusMessage: "Stopped.", finishedAt: new Date(), summary: { ...emptySummary(), total_calls: 10, cache_hits: 2 } })
      .where(eq(runs.id, run!.id));
    const again = (await shown()).find((r) => r.id === run!.id)!;
    expect([again.status, again.status_message, again.summary.cache_hits]).toEqual(["failed", "Stopped.", 2]);
    expect((await shown()).find((r) => r.id === older!.id)!.summary.total_calls).toBe(4);

    await db.delete(runs).where(eq(runs.id, older!.id));
    expect((await shown()).map((r) => r.id)).toEqual([run!.id]);
  });
});
