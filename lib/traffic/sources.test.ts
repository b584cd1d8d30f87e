import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { fieldViews, trafficSources } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import type { AccountContext } from "@/lib/context";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { installJobDriver, type JobDriver } from "@/lib/jobs";
import { popularityPage, visitShareOf, visitsByPath } from "@/lib/popularity";
import { createSite } from "@/lib/sites/service";
import { createTrafficSource, queueDueTrafficReads } from "./sources";
import { storeAnalyticsVisits, storeLogVisits } from "./store";

// Sources on their schedule, and the popularity table their reads make (ADR 0013).

let handle: DatabaseHandle;
let ctx: AccountContext;
const sent: { name: string; payload: unknown }[] = [];

beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  ctx = { db: handle.db, accountId: (await findOrCreateUser(handle.db, "traffic@example.com")).user.accountId };
  const driver: JobDriver = { send: async (name, payload) => void sent.push({ name, payload }) };
  installJobDriver(driver);
}, 60_000);

afterAll(async () => {
  installJobDriver(undefined);
  await handle?.close();
});

const counts = { lines: 1, counted: 1, broken: 0, paths: 1, skipped: { method: 0, status: 0, host: 0, asset: 0, bot: 0 } };
const day = (entries: Record<string, Record<string, number>>) => new Map(Object.entries(entries).map(([date, paths]) => [date, new Map(Object.entries(paths))]));
const sourceRow = async (id: number) => (await handle.db.select().from(trafficSources).where(eq(trafficSources.id, id)))[0]!;

describe("the schedule", () => {
  it("reads a fetched source at once, then queues it once when due, its next read a period on", async () => {
    const site = await createSite(ctx, { domain: "scheduled.example.com" });
    sent.length = 0;
    const source = await createTrafficSource(ctx, site.id, { kind: "access_log", url: "https://scheduled.example.com/access.log", read_every_hours: 6 });
    expect(sent).toEqual([{ name: "traffic.read", payload: { sourceId: source.id, siteId: site.id } }]);
    expect(Date.parse(source.next_read_at!) - Date.now()).toBeGreaterThan(5.9 * 3_600_000);

    // Not due yet: nothing queued.
    sent.length = 0;
    expect(await queueDueTrafficReads(handle.db)).toBe(0);
    const due = new Date(Date.parse(source.next_read_at!) + 1_000);
    expect(await queueDueTrafficReads(handle.db, due)).toBe(1);
    expect(await queueDueTrafficReads(handle.db, due)).toBe(0);
    expect(sent).toEqual([{ name: "traffic.read", payload: { sourceId: source.id, siteId: site.id } }]);
    const row = await sourceRow(source.id);
    expect(row.lastStatus).toBe("reading");
    expect(row.nextReadAt!.getTime()).toBe(due.getTime() + 6 * 3_600_000);
  });

  it("never schedules an uploaded log", async () => {
    const site = await createSite(ctx, { domain: "uploaded.example.com" });
    sent.length = 0;
    const source = await createTrafficSource(ctx, site.id, { kind: "access_log" });
    expect(source).toMatchObject({ read_every_hours: null, next_read_at: null, status: "never" });
    expect(sent).toEqual([]);
    await expect(createTrafficSource(ctx, site.id, { kind: "access_log", read_every_hours: 2 })).rejects.toThrow(/url/);
  });
});

describe("the popularity table", () => {
  it("counts a log's days once however often it is read, and looks back 30 days from its newest", async () => {
    const site = await createSite(ctx, { domain: "days.example.com" });
    const source = await createTrafficSource(ctx, site.id, { kind: "access_log" });
    const row = await sourceRow(source.id);
    await storeLogVisits(handle.db, row, day({ "2026-11-01": { "/a": 5 }, "2026-11-02": { "/a": 1, "/b": 3 } }), counts, null);
    await storeLogVisits(handle.db, await sourceRow(source.id), day({ "2026-11-02": { "/a": 1, "/b": 3 } }), counts, null);
    expect(Object.fromEntries(await visitsByPath(handle.db, site.id))).toEqual({ "/a": 6, "/b": 3 });
    // A log a month later: the days before its 30 fall out.
    await storeLogVisits(handle.db, await sourceRow(source.id), day({ "2026-12-02": { "/c": 2 } }), counts, null);
    expect(Object.fromEntries(await visitsByPath(handle.db, site.id))).toEqual({ "/c": 2 });
    expect((await sourceRow(source.id)).latestDay).toBe("2026-12-02");
  });

  it("takes the most any one source counted for a page, with each source's count, most visited first", async () => {
    const site = await createSite(ctx, { domain: "sources.example.com" });
    const log = await createTrafficSource(ctx, site.id, { kind: "access_log" });
    await storeLogVisits(handle.db, await sourceRow(log.id), day({ "2026-11-27": { "/": 50, "/shop": 10 } }), counts, null);
    const [plausible] = await handle.db
      .insert(trafficSources)
      .values({ siteId: site.id, accountId: ctx.accountId, kind: "plausible", name: "Plausible", settings: { site_id: "sources.example.com" } })
      .returning();
    await storeAnalyticsVisits(
      handle.db,
      plausible!,
      new Map([
        ["/shop", 40],
        ["/", 30],
      ]),
      counts,
    );
    await handle.db.insert(fieldViews).values({ siteId: site.id, hour: new Date(), path: "/about", device: "mobile", pop: "", cache: "hit", ttfbBucket: -1, views: 7 });

    const table = await popularityPage(handle.db, site.id, { limit: 10, offset: 0 });
    expect(table).toMatchObject({ paths: 3, visits: 97 });
    expect(table.rows).toEqual([
      {
        path: "/",
        visits: 50,
        sources: [
          { source_id: log.id, kind: "access_log", visits: 50 },
          { source_id: plausible!.id, kind: "plausible", visits: 30 },
        ],
      },
      {
        path: "/shop",
        visits: 40,
        sources: [
          { source_id: log.id, kind: "access_log", visits: 10 },
          { source_id: plausible!.id, kind: "plausible", visits: 40 },
        ],
      },
      { path: "/about", visits: 7, sources: [{ source_id: null, kind: "beacon", visits: 7 }] },
    ]);
    const visits = await visitsByPath(handle.db, site.id);
    // A page under www. and the bare domain is one page; a URL the table has not seen carries nothing.
    expect(visitShareOf(["https://www.sources.example.com/", "https://sources.example.com/", "https://sources.example.com/new"], visits)).toEqual({ visits: 50, total: 97 });
  });
});
