import { beforeAll, describe, expect, it } from "vitest";
import { api, createValidatedSite, endedRun, newKey, originLog, serveSite } from "./support/api";

/** Issue 26: a firewall that answers every call with Cloudflare's challenge page. */
const CHALLENGE = {
  status: 403,
  headers: { server: "cloudflare", "cf-ray": "8c1f2a3b4c5d6e7f-CDG", "cf-mitigated": "challenge" },
  body: "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>",
};
/** The rule docs/guide/site-owners/cache-detection.md documents: 20 blocked of the first 30 calls stop the run. */
const FIRST_CALLS = 30;
const BLOCKED = 20;

let key: string;

beforeAll(async () => {
  key = await newKey();
});

const ended = (runId: number) => endedRun(key, runId);

/** The calls the origin received for pages (the CSV and the ownership proof are not warming calls). */
const pageCalls = async (domain: string) => (await originLog(domain)).filter((line) => line.startsWith("GET /p/")).length;

async function expectBlocked(run: Record<string, any>, domain: string, siteId: number, agents: string[]) {
  expect(run.status).toBe("failed");
  expect(run.status_message).toMatch(/^Blocked by Cloudflare's bot protection: let Preheat through \(see http[^ ]+\/docs\/site-owners\/bot-protection\)\./);
  const calls = await pageCalls(domain);
  expect(calls).toBeGreaterThanOrEqual(BLOCKED);
  expect(calls).toBeLessThanOrEqual(FIRST_CALLS);
  // Every call counted once, none as a hit, a miss or an http_error.
  expect(run.summary).toMatchObject({ total_calls: calls, cache_hits: 0, cache_misses: 0, failed_calls: calls, not_cached: { blocked: calls }, blocked_by: { cloudflare: calls } });
  expect(run.summary.not_cached.http_error).toBeUndefined();
  const results = await api("GET", `/v1/runs/${run.id}/results?limit=100`, { key });
  expect(results.body.total).toBe(calls);
  expect(new Set(results.body.data.map((row: { reason: string }) => row.reason))).toEqual(new Set(["blocked"]));
  // Each row names the vendor, as the summary counts it.
  expect(new Set(results.body.data.map((row: { blocked_by: string | null }) => row.blocked_by))).toEqual(new Set(["cloudflare"]));
  const site = await api("GET", `/v1/sites/${siteId}`, { key });
  expect(site.body.blocked_verdicts).toEqual(Object.fromEntries(agents.map((agent) => [agent, { blocked_by: "cloudflare", at: expect.any(String), run_id: run.id }])));
}

describe("a site whose bot protection challenges every call", () => {
  it("ends a warm run failed after at most the first 30 calls, naming Cloudflare and the guide, and the site keeps the verdict", async () => {
    const site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: {}, fallback: CHALLENGE });
    const urls = Array.from({ length: 150 }, (_, i) => `http://${site.domain}/p/${i}`);
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls, variations: { user_agents: ["bot", "ai_crawler"] } } });
    expect(queued.status).toBe(202);
    await expectBlocked(await ended(queued.body.run_id), site.domain, site.id, ["bot", "ai_crawler"]);
    // Nothing more leaves once the run has stopped.
    const calls = await pageCalls(site.domain);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await pageCalls(site.domain)).toBe(calls);
  });

  it("ends a boost run the same way, and the boost is not paused: the owner has a firewall to change, not an error rate", async () => {
    const site = await createValidatedSite(key);
    const urls = Array.from({ length: 150 }, (_, i) => `http://${site.domain}/p/${i}`);
    await serveSite(site.domain, { routes: { "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } }, fallback: CHALLENGE });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Blocked", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    expect(boost.status).toBe(201);
    const triggered = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
    expect(triggered.status).toBe(202);
    await expectBlocked(await ended(triggered.body.run_id), site.domain, site.id, ["desktop"]);
    expect((await api("GET", `/v1/boosts/${boost.body.id}`, { key })).body.status).toBe("active");
  });
});
