import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, plans, runBatches, sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import type { DatabaseHandle } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { queueWarm } from "@/lib/runs/warm-runs";
import { pruneExpiredRuns } from "@/lib/runs/retention";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { recordFreshness, siteFreshness } from "./history";

const HOUR = 3_600_000;
/** The Cache-Control and X-Cache of each path. */
const PAGES: Record<string, { cacheControl: string; cache: string }> = {
  "/two-hours": { cacheControl: "public, max-age=0, s-maxage=7200", cache: "MISS" },
  "/hit": { cacheControl: "public, s-maxage=7200", cache: "HIT" },
  "/none": { cacheControl: "no-store", cache: "MISS" },
};
/** Requests the origin saw, per host. */
const seen = new Map<string, number>();
let world: LocalWorld;
let handle: DatabaseHandle;
let ctx: AccountContext;

beforeAll(async () => {
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      seen.set(host, (seen.get(host) ?? 0) + 1);
      const page = PAGES[req.url ?? "/"] ?? { cacheControl: "no-store", cache: "MISS" };
      res.writeHead(200, { "content-type": "text/html", "cache-control": page.cacheControl, "x-cache": page.cache }).end("<html><body>page</body></html>");
    },
    { email: "freshness@example.com", work: true },
  );
  ({ handle, ctx } = world);
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

async function validatedSite(domain: string) {
  const site = await createSite(ctx, { domain });
  await handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  return site;
}

/**
 * The figures by their definition, from every answer: at an hour's end, an entry is known when its last
 * answer was at most 32 days before, and fresh when that answer's fresh_until (capped there) is later.
 */
function expected(answers: { key: string; region: string; at: number; freshUntil: number | null }[], hourEnd: number) {
  const last = new Map<string, (typeof answers)[number]>();
  for (const answer of answers) if (answer.at <= hourEnd) last.set(`${answer.region} ${answer.key}`, answer);
  let known = 0;
  let fresh = 0;
  for (const answer of last.values()) {
    const knownUntil = answer.at + 32 * 24 * HOUR;
    if (knownUntil <= hourEnd) continue;
    known++;
    if (answer.freshUntil !== null && Math.min(answer.freshUntil, knownUntil) > hourEnd) fresh++;
  }
  return { known, fresh };
}

describe("freshness over time", () => {
  it("adds up, hour by hour, to what every answer says, over any sequence of answers", async () => {
    const site = await validatedSite("model.freshness.test");
    const start = Date.UTC(2026, 0, 5, 10, 0, 0);
    // A fixed pseudo-random sequence: answers at any minute, lifetimes from none to days, some stale on arrival.
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const answers: { key: string; region: string; at: number; freshUntil: number | null }[] = [];
    let at = start;
    for (let i = 0; i < 300; i++) {
      at += Math.floor(random() * 40 * 60_000);
      const key = `https://model.freshness.test/${Math.floor(random() * 12)} desktop`;
      const region = random() < 0.7 ? "fr" : "us";
      const kind = random();
      const freshUntil = kind < 0.15 ? null : kind < 0.25 ? at - 60_000 : at + Math.floor(random() * (kind < 0.9 ? 5 * HOUR : 40 * 24 * HOUR));
      answers.push({ key, region, at, freshUntil });
      await recordFreshness(
        handle.db,
        {
          readings: [{ siteId: site.id, region, callKey: key, freshUntil: freshUntil === null ? null : new Date(freshUntil) }],
          counts: [{ siteId: site.id, region, calls: 1, hits: 0, visitorCheckCalls: 0, visitorCheckHits: 0 }],
        },
        new Date(at),
      );
    }
    const now = new Date(at + 40 * 24 * HOUR);
    for (let from = start; from < at + 35 * 24 * HOUR; from += 30 * 24 * HOUR) {
      const answer = await siteFreshness(ctx, site.id, { from: new Date(from).toISOString(), to: new Date(from + 30 * 24 * HOUR).toISOString() }, now);
      expect(answer.hours).toHaveLength(Math.min(30 * 24, Math.floor((now.getTime() - from) / HOUR)));
      for (const hour of answer.hours) {
        const end = Date.parse(hour.hour) + HOUR;
        const want = expected(answers, end);
        expect({ hour: hour.hour, known: hour.urls_known, fresh: hour.urls_fresh }).toEqual({ hour: hour.hour, ...want });
        expect(hour.calls).toBe(answers.filter((a) => a.at >= end - HOUR && a.at < end).length);
        const fr = expected(
          answers.filter((a) => a.region === "fr"),
          end,
        );
        expect(hour.regions.find((r) => r.region === "fr") ?? { urls_known: 0, urls_fresh: 0 }).toMatchObject({ urls_known: fr.known, urls_fresh: fr.fresh });
      }
    }
  }, 60_000);

  it("counts the runs' calls, hits and visitor checks in their hour, and each page fresh while its answer is", async () => {
    const domain = "runs.freshness.test";
    const site = await validatedSite(domain);
    const urls = Object.keys(PAGES).map((path) => `http://${domain}${path}`);
    const first = await runEnded(ctx, (await queueWarm(ctx, site.id, { urls, region: ["fr", "de"], verify: "visitors" })).run.id);
    const second = await runEnded(ctx, (await queueWarm(ctx, site.id, { urls, region: ["fr"] })).run.id);
    const recordedHour = Math.floor(Date.now() / HOUR) * HOUR;
    const later = new Date(recordedHour + 5 * HOUR);
    const answer = await siteFreshness(ctx, site.id, { from: new Date(recordedHour - 2 * HOUR).toISOString() }, later);
    const calls = answer.hours.reduce((n, h) => n + h.calls, 0);
    const hits = answer.hours.reduce((n, h) => n + h.hits, 0);
    const visitorCalls = answer.hours.reduce((n, h) => n + (h.visitor_check_calls ?? 0), 0);
    // Every call the runs made, and that the origin saw, is in an hour.
    expect(calls).toBe(first.summary.total_calls + second.summary.total_calls);
    expect(calls).toBe(9);
    expect(hits).toBe(first.summary.cache_hits + second.summary.cache_hits);
    expect(hits).toBe(3);
    const [visitorBatches] = await handle.db
      .select({ calls: sql<number>`sum(successful_calls + failed_calls)::int`, hits: sql<number>`sum(cache_hits)::int` })
      .from(runBatches)
      .where(sql`${runBatches.runId} = ${first.id} and ${runBatches.purpose} = 'visitors'`);
    expect(visitorCalls).toBe(visitorBatches!.calls);
    expect(visitorCalls).toBeGreaterThan(0);
    expect(answer.hours.reduce((n, h) => n + (h.visitor_check_hits ?? 0), 0)).toBe(visitorBatches!.hits);
    expect(seen.get(domain)).toBe(calls + visitorCalls);
    // The runs took a few seconds: their hour, unless they crossed its end.
    const byHour = new Map(answer.hours.map((h) => [Date.parse(h.hour), h]));
    const last = Math.max(...answer.hours.filter((h) => h.calls > 0).map((h) => Date.parse(h.hour)));
    expect(byHour.get(recordedHour - 2 * HOUR)).toMatchObject({ urls_known: 0, urls_fresh: 0, calls: 0, visitor_check_calls: null });
    // Three pages in two regions known; the two with two hours of life fresh at the end of their hour and the next.
    expect(byHour.get(last)).toMatchObject({ urls_known: 6, urls_fresh: 4 });
    expect(byHour.get(last)!.regions).toEqual([
      { region: "de", urls_known: 3, urls_fresh: 2 },
      { region: "fr", urls_known: 3, urls_fresh: 2 },
    ]);
    expect(byHour.get(last + HOUR)).toMatchObject({ urls_known: 6, urls_fresh: 4, calls: 0 });
    expect(byHour.get(last + 2 * HOUR)).toMatchObject({ urls_known: 6, urls_fresh: 0, calls: 0 });
    expect(answer.fresh_share).toBeGreaterThan(0);
    // Only hours that have ended.
    expect(Date.parse(answer.to)).toBe(later.getTime());
  }, 60_000);

  it("answers a clear 422 beyond 31 days, and another account's site is not found", async () => {
    const site = await validatedSite("span.freshness.test");
    await expect(siteFreshness(ctx, site.id, { from: "2026-01-01T00:00:00Z", to: "2026-02-02T00:00:00Z" })).rejects.toThrow("At most 31 days at once.");
    await expect(siteFreshness(ctx, site.id, { from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" })).rejects.toThrow("`from` must be before `to`.");
    await expect(siteFreshness({ ...ctx, accountId: ctx.accountId + 999 }, site.id, {})).rejects.toThrow(/not found/i);
  });

  it("folds the hours past the runs' retention into one row, and the hours kept still add up", async () => {
    const site = await validatedSite("retention.freshness.test");
    const [plan] = await handle.db.insert(plans).values({ name: "Short memory", runRetentionDays: 2 }).returning();
    await handle.db.update(accounts).set({ planId: plan!.id }).where(eq(accounts.id, ctx.accountId));
    const start = Date.UTC(2026, 2, 1, 0, 30);
    const key = "https://retention.freshness.test/ desktop";
    for (let day = 0; day < 4; day++) {
      await recordFreshness(
        handle.db,
        {
          readings: [{ siteId: site.id, region: "fr", callKey: key, freshUntil: new Date(start + day * 24 * HOUR + 10 * HOUR) }],
          counts: [{ siteId: site.id, region: "fr", calls: 1, hits: 1, visitorCheckCalls: 0, visitorCheckHits: 0 }],
        },
        new Date(start + day * 24 * HOUR),
      );
    }
    const now = new Date(start + 4 * 24 * HOUR);
    const before = await siteFreshness(ctx, site.id, { from: new Date(start).toISOString() }, now);
    await pruneExpiredRuns(handle.db, now);
    const after = await siteFreshness(ctx, site.id, { from: new Date(start).toISOString() }, now);
    await handle.db.update(accounts).set({ planId: null }).where(eq(accounts.id, ctx.accountId));
    // The hours two days back and later are kept, with the same figures.
    expect(Date.parse(after.from)).toBe(Math.floor((now.getTime() - 2 * 24 * HOUR) / HOUR) * HOUR);
    expect(after.hours).toEqual(before.hours.slice(before.hours.length - after.hours.length));
    expect(after.hours.some((h) => h.urls_fresh === 1)).toBe(true);
  });
});
