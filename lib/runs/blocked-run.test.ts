import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites } from "@/drizzle/schema";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { runEnded } from "@/lib/testing/run-end";
import { createSite, getSite, toSite } from "@/lib/sites/service";
import { BLOCKED_STOP } from "./blocked";
import { listRunResults } from "./results";
import { getRun } from "./service";
import { queueWarm } from "./warm-runs";

/**
 * The firewall of issue 26: Cloudflare challenges whatever claims to be Googlebot (403, cf-mitigated),
 * on blocked.test everyone, and lets browsers through on mixed.test.
 */
const requests = new Map<string, number>();
let world: LocalWorld;

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  world = await startLocalWorld(
    (req, res) => {
      const host = (req.headers.host ?? "").replace(/:\d+$/, "");
      requests.set(host, (requests.get(host) ?? 0) + 1);
      const googlebot = /Googlebot/.test(req.headers["user-agent"] ?? "");
      if (host === "blocked.test" || googlebot) {
        return void res.writeHead(403, { "content-type": "text/html", server: "cloudflare", "cf-ray": "8c1f2a3b4c5d6e7f-CDG", "cf-mitigated": "challenge" }).end("<title>Just a moment...</title>");
      }
      res.writeHead(200, { "content-type": "text/html", "cf-cache-status": "HIT", "cf-ray": "8c1f2a3b4c5d6e7f-CDG" }).end("<p>page</p>");
    },
    { email: "blocked@example.com", work: true },
  );
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

const ended = (runId: number) => runEnded(world.ctx, runId);

async function validatedSite(domain: string) {
  const site = await createSite(world.ctx, { domain });
  await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  return site;
}

const urls = (domain: string, n: number) => Array.from({ length: n }, (_, i) => `http://${domain}/page-${i}`);

describe("a run blocked by bot protection", () => {
  it("stops, failed, after at most the first 30 calls, names the vendor, and leaves its verdict on the site", async () => {
    const site = await validatedSite("blocked.test");
    const { run } = await queueWarm(world.ctx, site.id, { urls: urls("blocked.test", 200), region: ["fr"], variations: { user_agents: ["desktop", "bot"] } });
    const done = await ended(run.id);
    expect(done.status).toBe("failed");
    expect(done.status_message).toMatch(
      /^Blocked by Cloudflare's bot protection: let Preheat through \(see https?:\/\/[^ ]+\/docs\/site-owners\/bot-protection\)\. \d+ of the run's first \d+ calls were answered/,
    );
    // Every call the site saw is counted, once: the calls in flight when it stopped included.
    const seen = requests.get("blocked.test")!;
    expect(seen).toBeGreaterThanOrEqual(BLOCKED_STOP.blocked);
    expect(seen).toBeLessThanOrEqual(BLOCKED_STOP.firstCalls);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // nothing leaves after the stop
    expect(requests.get("blocked.test")).toBe(seen);
    const after = await getRun(world.ctx, run.id);
    expect(after.summary).toMatchObject({ total_calls: seen, cache_hits: 0, failed_calls: seen, not_cached: { blocked: seen }, blocked_by: { cloudflare: seen } });
    const results = await listRunResults(world.ctx, run.id, {}, { limit: 100, offset: 0 });
    expect(new Set(results.data.map((r) => r.reason))).toEqual(new Set(["blocked"]));
    expect(new Set(results.data.map((r) => r.blocked_by))).toEqual(new Set(["cloudflare"]));
    const verdicts = toSite(await getSite(world.ctx, site.id)).blocked_verdicts;
    expect(verdicts).toEqual({
      desktop: { blocked_by: "cloudflare", at: expect.any(String), run_id: run.id },
      bot: { blocked_by: "cloudflare", at: expect.any(String), run_id: run.id },
    });
  });

  it("counts a class that is challenged as blocked, runs to its end when most calls get through, and keeps the verdict of that class only", async () => {
    const site = await validatedSite("mixed.test");
    const { run } = await queueWarm(world.ctx, site.id, { urls: urls("mixed.test", 20), region: ["fr"], variations: { user_agents: ["desktop", "mobile", "bot"] } });
    const done = await ended(run.id);
    expect(done.status).toBe("done");
    expect(done.summary).toMatchObject({ total_calls: 60, cache_hits: 40, not_cached: { blocked: 20 }, blocked_by: { cloudflare: 20 } });
    expect(done.status_message).toContain("Blocked by Cloudflare's bot protection on 20 calls: let Preheat through (see ");
    expect(Object.keys(toSite(await getSite(world.ctx, site.id)).blocked_verdicts)).toEqual(["bot"]);
  });
});
