import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, webhooks } from "@/drizzle/schema";
import { createBoost, deleteBoost } from "@/lib/boosts/service";
import { addSitemap } from "@/lib/sitemaps/service";
import { createSite } from "@/lib/sites/service";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { listAuditEvents, pruneAuditEvents, recordAuditEvent } from "./audit";
import { findOrCreateUser } from "./users";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

const DAY_MS = 86_400_000;
const page = { limit: 100, offset: 0 };

async function recordAged(accountId: number, action: string, daysAgo: number, now: Date) {
  await recordAuditEvent(handle.db, { accountId, actor: { type: "key", label: "phk_abcd1234" }, action, targetType: "site", targetId: 1 });
  await handle.db.execute(sql`update ${auditEvents} set created_at = ${new Date(now.getTime() - daysAgo * DAY_MS).toISOString()}::timestamptz where id = (select max(id) from ${auditEvents})`);
}

describe("audit events", () => {
  it("name each target as it is now, by one read per kind, and say which are gone; never another organization's", async () => {
    const { user } = await findOrCreateUser(handle.db, "names@example.com");
    const ctx = { db: handle.db, accountId: user.accountId };
    const site = await createSite(ctx, { domain: "names.example.com" });
    const sitemap = await addSitemap(ctx, site.id, { url: "https://names.example.com/sitemap.xml" });
    const boost = (name: string) => createBoost(ctx, site.id, { name, source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"] });
    const [nightly, gone] = [await boost("Nightly catalogue"), await boost("Gone soon")];
    await deleteBoost(ctx, gone.id);
    const [slack] = await handle.db
      .insert(webhooks)
      .values({ accountId: user.accountId, url: "https://hooks.slack.com/services/T000/B000/secret-path", events: ["run.completed"], secret: "whsec_test" })
      .returning();
    const { user: stranger } = await findOrCreateUser(handle.db, "stranger-names@example.com");
    const theirs = await createSite({ db: handle.db, accountId: stranger.accountId }, { domain: "theirs.example.com" });
    const targets: [string, number | null][] = [
      ["site", site.id],
      ["boost", nightly.id],
      ["boost", gone.id],
      ["webhook", slack!.id],
      ["user", user.id],
      ["session", 5],
      ["site", theirs.id],
      ["key", null],
    ];
    for (const [targetType, targetId] of targets) {
      await recordAuditEvent(handle.db, { accountId: user.accountId, actor: { type: "key", label: "phk_names123" }, action: `${targetType}.updated`, targetType, targetId });
    }
    const listed = (await listAuditEvents(ctx, {}, page)).data.reverse().map((event) => event.target);
    expect(listed).toEqual([
      { type: "site", id: String(site.id), name: "names.example.com", deleted: false },
      { type: "boost", id: String(nightly.id), name: "Nightly catalogue", deleted: false },
      { type: "boost", id: String(gone.id), name: null, deleted: true },
      // Its URL's path holds a secret: only the origin names it.
      { type: "webhook", id: String(slack!.id), name: "https://hooks.slack.com", deleted: false },
      { type: "user", id: String(user.id), name: "names@example.com", deleted: false },
      { type: "session", id: "5", name: null, deleted: null },
      // Another organization's site is not this log's to name: as if deleted.
      { type: "site", id: String(theirs.id), name: null, deleted: true },
      { type: "key", id: null, name: null, deleted: null },
    ]);
  });

  it("coalesced (a deploy hook's calls) count on one entry per target for an hour, then start another", async () => {
    const { user } = await findOrCreateUser(handle.db, "hook-calls@example.com");
    const ctx = { db: handle.db, accountId: user.accountId };
    const call = (hookId: number) =>
      recordAuditEvent(handle.db, { accountId: user.accountId, actor: { type: "hook", label: String(hookId) }, action: "hook.triggered", targetType: "hook", targetId: hookId, coalesce: true });
    for (let i = 0; i < 5; i++) await call(7);
    await call(8);
    const listed = async () => (await listAuditEvents(ctx, { action: "hook.triggered" }, page)).data.map((e) => [e.target.id, e.count]);
    expect(await listed()).toEqual([
      ["8", 1],
      ["7", 5],
    ]);
    // An hour on, the next call opens a new entry.
    await handle.db.execute(sql`update ${auditEvents} set created_at = created_at - interval '61 minutes' where account_id = ${user.accountId}`);
    await call(7);
    expect(await listed()).toEqual([
      ["7", 1],
      ["8", 1],
      ["7", 5],
    ]);
    // Uncoalesced events are each their own entry.
    await recordAuditEvent(handle.db, { accountId: user.accountId, actor: { type: "key", label: "phk_twice123" }, action: "site.validated", targetType: "site", targetId: 1 });
    await recordAuditEvent(handle.db, { accountId: user.accountId, actor: { type: "key", label: "phk_twice123" }, action: "site.validated", targetType: "site", targetId: 1 });
    expect((await listAuditEvents(ctx, { action: "site.validated" }, page)).data.map((e) => e.count)).toEqual([1, 1]);
  });

  it("keep the fields an update supplied, and no value at all (SQL's null) when it names none", async () => {
    const { user } = await findOrCreateUser(handle.db, "changes@example.com");
    const event = { accountId: user.accountId, actor: { type: "key" as const, label: "phk_changes1" }, targetType: "site", targetId: 3 };
    await recordAuditEvent(handle.db, { ...event, action: "site.updated", changes: ["max_concurrency", "max_requests_per_second"] });
    await recordAuditEvent(handle.db, { ...event, action: "site.validated" });
    const stored = await handle.db.execute(sql`select action, changes, changes is null as absent from ${auditEvents} where account_id = ${user.accountId} order by id`);
    expect(rowsOf(stored)).toEqual([
      { action: "site.updated", changes: ["max_concurrency", "max_requests_per_second"], absent: false },
      { action: "site.validated", changes: null, absent: true },
    ]);
  });

  it("recorded at the same moment by many requests, are each kept whole, in the order they were recorded", async () => {
    const { user } = await findOrCreateUser(handle.db, "together@example.com");
    const actor = { type: "user" as const, label: "together@example.com", userId: user.id };
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => recordAuditEvent(handle.db, { accountId: user.accountId, actor, action: "site.warmed", targetType: "site", targetId: i, clientAddress: `203.0.113.${i}` })),
    );
    const stored = rowsOf<{ target_id: string; actor_user_id: number; client_address: string }>(
      await handle.db.execute(sql`select target_id, actor_user_id, client_address from ${auditEvents} where account_id = ${user.accountId} order by id`),
    );
    expect(stored).toEqual(Array.from({ length: 30 }, (_, i) => ({ target_id: String(i), actor_user_id: user.id, client_address: `203.0.113.${i}` })));
  });

  it("are listed newest first, filtered by actor (any case for an e-mail), action (exact or prefix) and target", async () => {
    const { user } = await findOrCreateUser(handle.db, "auditor@example.com");
    const ctx = { db: handle.db, accountId: user.accountId };
    await recordAuditEvent(handle.db, {
      accountId: ctx.accountId,
      actor: { type: "user", label: "auditor@example.com", userId: user.id },
      action: "site.created",
      targetType: "site",
      targetId: 7,
      clientAddress: "198.51.100.7",
    });
    await recordAuditEvent(handle.db, {
      accountId: ctx.accountId,
      actor: { type: "key", label: "phk_0123abcd" },
      action: "site.updated",
      targetType: "site",
      targetId: "7",
      changes: ["max_concurrency"],
    });
    await recordAuditEvent(handle.db, { accountId: ctx.accountId, actor: { type: "key", label: "phk_0123abcd" }, action: "sites.weird_created", targetType: "boost", targetId: 9 });
    const all = await listAuditEvents(ctx, {}, page);
    expect(all.total).toBe(3);
    expect(all.data.map((e) => e.action)).toEqual(["sites.weird_created", "site.updated", "site.created"]);
    expect(all.data[2]).toMatchObject({ actor: { type: "user", label: "auditor@example.com", user_id: user.id }, target: { type: "site", id: "7" }, changes: [], client_address: "198.51.100.7" });
    expect(all.data[1]).toMatchObject({ actor: { type: "key", label: "phk_0123abcd" }, changes: ["max_concurrency"], client_address: null });
    expect(all.data[1]!.actor).not.toHaveProperty("user_id");
    expect((await listAuditEvents(ctx, { actor: "Auditor@Example.com" }, page)).total).toBe(1);
    expect((await listAuditEvents(ctx, { actor: "PHK_0123ABCD" }, page)).total).toBe(0);
    expect((await listAuditEvents(ctx, { action: "site." }, page)).total).toBe(2);
    expect((await listAuditEvents(ctx, { action: "site.*" }, page)).total).toBe(2);
    expect((await listAuditEvents(ctx, { action: "site" }, page)).total).toBe(0);
    expect((await listAuditEvents(ctx, { targetType: "site", targetId: "7" }, page)).total).toBe(2);
    // Another organization sees none of them.
    const other = await findOrCreateUser(handle.db, "other@example.com");
    expect((await listAuditEvents({ db: handle.db, accountId: other.user.accountId }, {}, page)).total).toBe(0);
    // A key limited to some sites sees only the events on those sites.
    expect((await listAuditEvents({ ...ctx, siteIds: [7] }, {}, page)).total).toBe(2);
    expect((await listAuditEvents({ ...ctx, siteIds: [8] }, {}, page)).total).toBe(0);
  });

  it("are pruned once older than the retention, and only those", async () => {
    const { user } = await findOrCreateUser(handle.db, "pruned@example.com");
    const ctx = { db: handle.db, accountId: user.accountId };
    const now = new Date("2027-06-01T12:00:00Z");
    await recordAged(ctx.accountId, "site.deleted", 400, now);
    await recordAged(ctx.accountId, "site.updated", 366, now);
    await recordAged(ctx.accountId, "site.created", 364, now);
    await recordAged(ctx.accountId, "site.validated", 1, now);
    expect(await pruneAuditEvents(handle.db, now)).toBeGreaterThanOrEqual(2); // the default: 365 days
    expect((await listAuditEvents(ctx, {}, page)).data.map((e) => e.action)).toEqual(["site.validated", "site.created"]);
    expect(await pruneAuditEvents(handle.db, now, 30)).toBeGreaterThanOrEqual(1);
    expect((await listAuditEvents(ctx, {}, page)).data.map((e) => e.action)).toEqual(["site.validated"]);
    expect(await pruneAuditEvents(handle.db, now, 30)).toBe(0);
  });
});
