import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites } from "@/drizzle/schema";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { createSite } from "@/lib/sites/service";
import { queueWarm } from "./warm-runs";
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
  world = await startLocalWorld((req, res) => {
    seen.push(req.url ?? "");
    const page = pages[req.url ?? ""] ?? { status: 404 };
    setTimeout(() => res.writeHead(page.status ?? 200, { "content-type": "text/html", ...page.headers }).end("<p>page</p>"), page.delayMs ?? 0);
  }, { email: "cold@example.com", work: true });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

async function ended(runId: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = await getRun(world.ctx, runId);
    if (["done", "failed", "paused"].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

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
    expect(done.summary.average_hit_response_time_ms).toBeLessThan(100);
    expect(done.summary.average_miss_response_time_ms).toBeGreaterThanOrEqual(150);
    expect(done.pops_breakdown).toEqual([
      { pop: "CDG", calls: 3, hits: 1, average_hit_response_time_ms: expect.any(Number), average_miss_response_time_ms: expect.any(Number) },
    ]);
    const [cdg] = done.pops_breakdown;
    expect(cdg!.average_miss_response_time_ms).toBeGreaterThanOrEqual(150);
    expect(cdg!.average_hit_response_time_ms).toBeLessThan(cdg!.average_miss_response_time_ms!);
  });
});
