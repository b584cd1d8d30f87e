import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs, sites } from "@/drizzle/schema";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { createSite } from "@/lib/sites/service";
import { queueWarm } from "./warm-runs";
import { listRunResults, runResultsCsv } from "./results";
import { getRun } from "./service";

/** Each page answers one way; /warming is a miss the first time and a hit afterwards, slower when cold. */
type Page = { status?: number; headers?: Record<string, string>; delayMs?: number };
const CDG = { "cf-ray": "8c1f2a3b4c5d6e7f-CDG" };
const pages: Record<string, Page> = {
  "/cookie": { headers: { "x-cache": "MISS", "set-cookie": "session=abc; Path=/" } },
  "/vary": { headers: { "x-cache": "MISS", vary: "User-Agent" } },
  "/no-store": { headers: { "x-cache": "MISS", "cache-control": "no-store" } },
  "/bypass": { headers: { "cf-cache-status": "BYPASS", ...CDG }, delayMs: 20 },
  "/error": { status: 500 },
  "/plain": { headers: { "cache-control": "public, max-age=600" } },
  "/hit": { headers: { "cf-cache-status": "HIT", ...CDG }, delayMs: 5 },
  "/cold": { headers: { "cf-cache-status": "MISS", "cache-control": "public, s-maxage=600", ...CDG }, delayMs: 150 },
};
const seen: string[] = [];
let world: LocalWorld;

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  world = await startLocalWorld(
    (req, res) => {
      seen.push(req.url ?? "");
      const path = new URL(req.url ?? "/", "http://origin").pathname;
      // A page the cache stores on its first request: a miss, then hits.
      if (path === "/warming") {
        const first = seen.filter((url) => url === "/warming").length === 1;
        return void res.writeHead(200, { "cf-cache-status": first ? "MISS" : "HIT", "cache-control": "public, s-maxage=600", ...CDG }).end("<p>warming</p>");
      }
      const page = pages[path] ?? { status: 404 };
      setTimeout(() => res.writeHead(page.status ?? 200, { "content-type": "text/html", ...page.headers }).end("<p>page</p>"), page.delayMs ?? 0);
    },
    { email: "cold@example.com", work: true },
  );
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

const ended = (runId: number) => runEnded(world.ctx, runId);

describe("why calls were not cached", () => {
  it("gives every call that did not hit one reason, counts misses, and compares hits with misses per PoP", async () => {
    const site = await createSite(world.ctx, { domain: "cold.test" });
    await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const { run } = await queueWarm(world.ctx, site.id, { urls: Object.keys(pages).map((path) => `http://cold.test${path}`), region: ["fr"] });
    const done = await ended(run.id);
    expect(done.summary).toMatchObject({
      total_calls: 8,
      cache_hits: 1,
      cache_misses: 1,
      not_cached: { set_cookie: 1, vary: 1, no_store: 1, cdn_bypass: 1, http_error: 1, no_cache_detected: 1, miss: 1 },
    });
    // One hit answered in 5 ms against a miss's 150: faster, whatever a loaded machine adds to both.
    expect(done.summary.average_miss_response_time_ms).toBeGreaterThanOrEqual(150);
    expect(done.summary.average_hit_response_time_ms).toBeLessThan(done.summary.average_miss_response_time_ms!);
    expect(done.pops_breakdown).toEqual([{ pop: "CDG", calls: 3, hits: 1, average_hit_response_time_ms: expect.any(Number), average_miss_response_time_ms: expect.any(Number) }]);
    const [cdg] = done.pops_breakdown;
    expect(cdg!.average_miss_response_time_ms).toBeGreaterThanOrEqual(150);
    expect(cdg!.average_hit_response_time_ms).toBeLessThan(cdg!.average_miss_response_time_ms!);
    // A finished run's breakdown is kept when it ends: later reads answer the same from it.
    const [kept] = await world.handle.db.select({ breakdown: runs.breakdown }).from(runs).where(eq(runs.id, run.id));
    expect(kept!.breakdown).toEqual({ regions: done.regions_breakdown, pops: done.pops_breakdown, variants: done.variants_breakdown });
    expect(await getRun(world.ctx, run.id)).toEqual(done);

    // What stayed cold, URL by URL, in call order: every call but the hit.
    const page = { limit: 100, offset: 0 };
    const results = await listRunResults(world.ctx, run.id, {}, page);
    expect(results).toMatchObject({ total: 7, truncated: false, limit: 100, offset: 0 });
    expect(results.data.map((r) => [new URL(r.url).pathname, r.reason])).toEqual([
      ["/cookie", "set_cookie"],
      ["/vary", "vary"],
      ["/no-store", "no_store"],
      ["/bypass", "cdn_bypass"],
      ["/error", "http_error"],
      ["/plain", "no_cache_detected"],
      ["/cold", "miss"],
    ]);
    expect(results.data.find((r) => r.reason === "miss")).toMatchObject({
      user_agent: "desktop",
      language: null,
      region: "fr",
      status_code: 200,
      cache_status: "miss",
      pop: "CDG",
      response_time_ms: expect.any(Number),
      verified_cache_status: null,
      blocked_by: null,
    });
    expect(results.data.find((r) => r.reason === "http_error")).toMatchObject({ status_code: 500, blocked_by: null, shared_lifetime_seconds: null, fresh_until: null });
    // The shared-cache reading of each answer: s-maxage=600 lives ten minutes from its arrival; no-store has no lifetime.
    const cold = results.data.find((r) => r.reason === "miss")!;
    expect(cold).toMatchObject({ shared_lifetime_seconds: 600, age_seconds: expect.any(Number) });
    expect(cold.age_seconds).toBeLessThanOrEqual(1);
    expect(Date.parse(cold.fresh_until!) - Date.now()).toBeGreaterThan(500_000);
    expect(results.data.find((r) => r.reason === "no_store")).toMatchObject({ shared_lifetime_seconds: null, age_seconds: 0, fresh_until: null });
    const misses = await listRunResults(world.ctx, run.id, { reason: "miss" }, page);
    expect(misses.data.map((r) => r.url)).toEqual(["http://cold.test/cold"]);
    expect((await listRunResults(world.ctx, run.id, { region: "de" }, page)).total).toBe(0);
    expect((await listRunResults(world.ctx, run.id, {}, { limit: 2, offset: 6 })).data.map((r) => r.reason)).toEqual(["miss"]);

    // The CSV holds the same rows, all of them.
    const csv = await new Response(await runResultsCsv(world.ctx, run.id, {})).text();
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(
      "url,user_agent,language,region,status_code,cache_status,pop,response_time_ms,reason,verified_cache_status,cookie_set,encoding,blocked_by,shared_lifetime_seconds,age_seconds,fresh_until",
    );
    expect(lines.slice(1).map((line) => line.split(",")[8])).toEqual(results.data.map((r) => r.reason));
    expect(lines.slice(1).map((line) => line.split(",").slice(13))).toEqual(results.data.map((r) => [String(r.shared_lifetime_seconds ?? ""), String(r.age_seconds ?? ""), r.fresh_until ?? ""]));
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(results.data.map((r) => r.url));
  });

  it("keeps every call, hits included, to list and search them; counts as bypass only what the reasons call a CDN bypass", async () => {
    const site = await createSite(world.ctx, { domain: "every.test" });
    await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const paths = ["/hit", "/bypass", "/error-bypass", "/cold", "/hit?colour=blue", "/missing-bypass"];
    pages["/error-bypass"] = { status: 500, headers: { "cf-cache-status": "BYPASS", ...CDG } };
    pages["/missing-bypass"] = { status: 404, headers: { "cf-cache-status": "DYNAMIC", ...CDG } };
    const { run } = await queueWarm(world.ctx, site.id, { urls: paths.map((path) => `http://every.test${path}`), region: ["fr"] });
    const done = await ended(run.id);
    expect(done.summary).toMatchObject({ total_calls: 6, cache_hits: 2, not_cached: { cdn_bypass: 1, http_error: 2, miss: 1 } });
    // The error pages answered BYPASS and DYNAMIC too, but their reason is the error: the bypass figure is the reasons' line.
    expect(done.bypassed_calls).toBe(1);
    expect(done.regions_breakdown[0]!.bypassed_calls).toBe(1);

    const page = { limit: 100, offset: 0 };
    const pathsOf = (rows: { url: string }[]) => rows.map((r) => new URL(r.url).pathname + new URL(r.url).search);
    const every = await listRunResults(world.ctx, run.id, { calls: "all" }, page);
    expect(every).toMatchObject({ total: 6, truncated: false });
    expect(pathsOf(every.data)).toEqual(paths);
    expect(every.data.filter((r) => r.reason === null).map((r) => r.cache_status)).toEqual(["hit", "hit"]);
    const hits = await listRunResults(world.ctx, run.id, { calls: "hit" }, page);
    expect(pathsOf(hits.data)).toEqual(["/hit", "/hit?colour=blue"]);
    expect((await listRunResults(world.ctx, run.id, {}, page)).total).toBe(4);
    // The search finds a text anywhere in the URL, whatever its case, and takes % and _ literally.
    expect(pathsOf((await listRunResults(world.ctx, run.id, { calls: "all", url: "BYPASS" }, page)).data)).toEqual(["/bypass", "/error-bypass", "/missing-bypass"]);
    expect(pathsOf((await listRunResults(world.ctx, run.id, { calls: "hit", url: "colour=" }, page)).data)).toEqual(["/hit?colour=blue"]);
    expect((await listRunResults(world.ctx, run.id, { calls: "all", url: "%" }, page)).total).toBe(0);
    expect((await listRunResults(world.ctx, run.id, { calls: "all", url: "_" }, page)).total).toBe(0);
    // A reason narrows whatever `calls` says.
    expect(pathsOf((await listRunResults(world.ctx, run.id, { calls: "hit", reason: "http_error" }, page)).data)).toEqual(["/error-bypass", "/missing-bypass"]);

    // The CSV of every call: a hit's reason is empty.
    const csv = await new Response(await runResultsCsv(world.ctx, run.id, { calls: "all" })).text();
    const rows = csv.trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(6);
    expect(rows.map((line) => line.split(",")[8])).toEqual(["", "cdn_bypass", "http_error", "miss", "", "http_error"]);
  });

  it("keeps the rows of a run's first PREHEAT_RUN_RESULTS_MAX calls, and says when it made more", async () => {
    process.env.PREHEAT_RUN_RESULTS_MAX = "3";
    try {
      const site = await createSite(world.ctx, { domain: "many.test" });
      await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
      const { run } = await queueWarm(world.ctx, site.id, { urls: Array.from({ length: 10 }, (_, i) => `http://many.test/plain?${i}`), region: ["fr"] });
      const done = await ended(run.id);
      expect(done.summary.not_cached).toEqual({ no_cache_detected: 10 });
      const results = await listRunResults(world.ctx, run.id, {}, { limit: 100, offset: 0 });
      expect(results).toMatchObject({ total: 3, truncated: true });
      expect(results.data.map((r) => new URL(r.url).search)).toEqual(["?0", "?1", "?2"]);
      expect(await listRunResults(world.ctx, run.id, { calls: "all" }, { limit: 100, offset: 0 })).toMatchObject({ total: 3, truncated: true });
    } finally {
      delete process.env.PREHEAT_RUN_RESULTS_MAX;
    }
  });
});

describe("verify", () => {
  it("asks each cacheable miss once more after the run's calls, and counts the ones that became hits, apart", async () => {
    process.env.PREHEAT_VERIFY_DELAY_SECONDS = "0.3";
    try {
      const before = seen.length;
      const site = await createSite(world.ctx, { domain: "verify.test" });
      await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
      const { run } = await queueWarm(world.ctx, site.id, { urls: ["http://verify.test/warming", "http://verify.test/hit", "http://verify.test/cookie"], region: ["fr"], verify: true });
      const done = await ended(run.id);
      expect(done.status).toBe("done");
      // The first pass: three calls, one cacheable miss; the verification is counted apart.
      expect(done.summary).toMatchObject({ total_calls: 3, cache_hits: 1, cache_misses: 1, verified: { calls: 1, hits: 1 } });
      expect(done.progress).toEqual({ planned_calls: 3, completed_calls: 3 });
      expect(seen.filter((url) => url === "/warming")).toHaveLength(2);
      expect(seen.slice(before).filter((url) => url === "/cookie")).toHaveLength(1);
      const results = await listRunResults(world.ctx, run.id, {}, { limit: 100, offset: 0 });
      expect(results.data.map((r) => [new URL(r.url).pathname, r.reason, r.verified_cache_status])).toEqual([
        ["/warming", "miss", "hit"],
        ["/cookie", "set_cookie", null],
      ]);
    } finally {
      delete process.env.PREHEAT_VERIFY_DELAY_SECONDS;
    }
  });

  it("is null without verify", async () => {
    const site = await createSite(world.ctx, { domain: "noverify.test" });
    await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
    const { run } = await queueWarm(world.ctx, site.id, { urls: ["http://noverify.test/cold"], region: ["fr"] });
    expect((await ended(run.id)).summary.verified).toBeNull();
  });
});
