import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, createValidatedSite, endedRun, newKey, originLog, serveSite } from "./support/api";

// GET /v1/runs/{id}: the figures per region, the calls the CDN did not cache, and failure samples.

const EMPTY_REGION = { total_calls: 0, successful_calls: 0, failed_calls: 0, cache_hits: 0, bypassed_calls: 0, average_response_time_ms: 0, egress: "local", pops: [], reached: "unknown" };

let key: string;

beforeAll(async () => {
  key = await newKey();
});

const ended = (runId: number) => endedRun(key, runId);

describe("GET /v1/runs/{runId} details", () => {
  it("lists every region of a pending boost run with zeros, no bypassed calls and no failure samples", async () => {
    const site = await createSite(key);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Pending", source_type: "csv", source_url: "https://files.example.org/urls.csv", region: ["us", "uk"] },
    });
    expect(boost.status).toBe(201);
    const run = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
    expect(run.status).toBe(202);

    const response = await api("GET", `/v1/runs/${run.body.run_id}`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      bypassed_calls: 0,
      regions_breakdown: [
        { region: "us", ...EMPTY_REGION },
        { region: "gb", ...EMPTY_REGION },
      ],
      failure_samples: [],
    });
  });

  it("counts per region, apart the calls answered BYPASS, and samples the failed calls", async () => {
    const site = await createValidatedSite(key);
    const vercel = (verdict: string) => ({ "x-vercel-cache": verdict, "x-vercel-id": "cdg1::iad1::abc" });
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/": { body: "<html>home</html>", headers: vercel("HIT") },
        "/bypass": { body: "<html>for crawlers</html>", headers: vercel("BYPASS") },
        "/broken": { status: 500, body: "boom" },
      },
    });
    const urls = ["/", "/bypass", "/broken"].map((path) => `http://${site.domain}${path}`);
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls, region: ["gb", "fr"] } });
    expect(queued.status).toBe(202);

    const run = await ended(queued.body.run_id);
    expect(run.status).toBe("done");
    expect(run.summary).toMatchObject({ total_calls: 6, successful_calls: 4, failed_calls: 2, cache_hits: 2 });
    expect(run.bypassed_calls).toBe(2);
    // Vercel's cdg1 is Paris: France's calls reached France, the United Kingdom's did not.
    const cdg = (inRegion: boolean) => [{ pop: "CDG", calls: 2, country: "FR", continent: "EU", in_region: inRegion }];
    expect(run.regions_breakdown).toEqual(
      (["gb", "fr"] as const).map((region) => ({
        region,
        total_calls: 3,
        successful_calls: 2,
        failed_calls: 1,
        cache_hits: 1,
        bypassed_calls: 1,
        average_response_time_ms: expect.any(Number),
        egress: "local", // no regional worker, no proxy: the server's own network
        pops: cdg(region === "fr"),
        reached: region === "fr" ? "in_region" : "elsewhere",
      })),
    );
    expect(run.status_message).toContain("gb was warmed through CDG (France): its visitors' PoPs were not warmed.");
    expect(run.status_message).not.toContain("fr was warmed");
    expect(run.failure_samples).toHaveLength(2);
    for (const sample of run.failure_samples) {
      expect(sample).toEqual({ url: `http://${site.domain}/broken`, region: expect.stringMatching(/^(gb|fr)$/), user_agent: "desktop", language: null, status: 500, error: expect.any(String) });
    }
    expect(run.failure_samples.map((sample: { region: string }) => sample.region).sort()).toEqual(["fr", "gb"]);
  }, 90_000);
});

describe("regions that are not what they say", () => {
  it("says a region was warmed elsewhere when its calls answer from a PoP outside it (de through CDG)", async () => {
    const site = await createValidatedSite(key);
    const cloudflare = { "cf-cache-status": "HIT", "cf-ray": "8c1f2a3b4c5d6e7f-CDG" };
    await serveSite(site.domain, {
      routes: { [`/${site.validation_token}.html`]: { body: site.validation_token }, "/a": { body: "a", headers: cloudflare }, "/b": { body: "b", headers: cloudflare } },
    });
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: ["a", "b"].map((p) => `http://${site.domain}/${p}`), region: ["de"] } });
    expect(queued.status).toBe(202);
    const run = await ended(queued.body.run_id);
    expect(run.regions_breakdown).toEqual([expect.objectContaining({ region: "de", reached: "elsewhere", pops: [{ pop: "CDG", calls: 2, country: "FR", continent: "EU", in_region: false }] })]);
    expect(run.status_message).toContain("de was warmed through CDG (France): its visitors' PoPs were not warmed.");
  }, 90_000);

  it("warns in the estimate that a default install's regions share one egress", async () => {
    const site = await createValidatedSite(key);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Three regions", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr", "de", "us"] },
    });
    expect(boost.status).toBe(201);
    const estimate = await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key });
    expect(estimate.status).toBe(200);
    expect(estimate.body.shared_egress).toEqual([["fr", "de", "us"]]);
    expect(estimate.body.notes).toContainEqual(expect.stringContaining("fr, de and us leave through Preheat's own network"));
  });
});

describe("GET /v1/runs/{runId}/results", () => {
  it("lists the calls that were not a hit with their reasons, every call on request, as JSON pages and as CSV, and refuses bad filters", async () => {
    const site = await createValidatedSite(key);
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/hit": { body: "<p>hit</p>", headers: { "cf-cache-status": "HIT", "cf-ray": "8c1f2a3b4c5d6e7f-CDG" } },
        "/cookie": { body: "<p>cookie</p>", headers: { "cf-cache-status": "MISS", "cf-ray": "8c1f2a3b4c5d6e7f-CDG", "set-cookie": "a=1" } },
        "/cold": { body: "<p>cold</p>", headers: { "cf-cache-status": "MISS", "cf-ray": "8c1f2a3b4c5d6e7f-CDG", "cache-control": "public, s-maxage=60" } },
      },
    });
    const urls = ["/hit", "/cookie", "/cold"].map((path) => `http://${site.domain}${path}`);
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls, region: ["fr", "de"] } });
    const run = await ended(queued.body.run_id);
    expect(run.summary).toMatchObject({ cache_hits: 2, cache_misses: 2, not_cached: { set_cookie: 2, miss: 2 } });

    const all = await api("GET", `/v1/runs/${run.id}/results?limit=100`, { key });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, limit: 100, offset: 0, truncated: false });
    expect(all.body.data.map((r: { reason: string }) => r.reason).sort()).toEqual(["miss", "miss", "set_cookie", "set_cookie"]);
    const cookies = await api("GET", `/v1/runs/${run.id}/results?reason=set_cookie&region=de`, { key });
    expect(cookies.body.data).toEqual([expect.objectContaining({ url: `http://${site.domain}/cookie`, region: "de", reason: "set_cookie", cache_status: "miss", pop: "CDG", status_code: 200 })]);

    const csv = await api("GET", `/v1/runs/${run.id}/results?format=csv&reason=miss`, { key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toContain(`run-${run.id}-results.csv`);
    const lines = String(csv.body).trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((line) => line.startsWith(`http://${site.domain}/cold,`))).toBe(true);

    // Every call, hits included (reason null), and a search by URL text.
    const every = await api("GET", `/v1/runs/${run.id}/results?calls=all&limit=100`, { key });
    expect(every.body).toMatchObject({ total: 6, truncated: false });
    expect(every.body.data.filter((r: { reason: string | null }) => r.reason === null)).toHaveLength(2);
    const hits = await api("GET", `/v1/runs/${run.id}/results?calls=hit&url=%2FHIT`, { key });
    expect(hits.body.data.map((r: { url: string; region: string }) => [r.url, r.region]).sort()).toEqual([
      [`http://${site.domain}/hit`, "de"],
      [`http://${site.domain}/hit`, "fr"],
    ]);
    const everyCsv = await api("GET", `/v1/runs/${run.id}/results?format=csv&calls=all`, { key });
    expect(String(everyCsv.body).trim().split("\r\n")).toHaveLength(7);

    for (const query of ["reason=cold", "region=mars", "format=xml", "limit=101", "calls=cold", `url=${"x".repeat(2_001)}`]) {
      const refused = await api("GET", `/v1/runs/${run.id}/results?${query}`, { key });
      expect(refused.status, query).toBe(422);
    }
    expect((await api("GET", `/v1/runs/2000000000/results`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/runs/${run.id}/results`, { key: await newKey() })).status).toBe(404);
    expect((await api("GET", `/v1/runs/${run.id}/results`, { key: await newKey("sites:read") })).status).toBe(403);
  });
});

describe("the shared-cache reading of each answer", () => {
  it("reads public, max-age=0, s-maxage=3600 as a CDN does: a cacheable miss kept an hour, with no advice to add the s-maxage it has", async () => {
    const site = await createValidatedSite(key);
    const cloudflare = { "cf-cache-status": "MISS", "cf-ray": "8c1f2a3b4c5d6e7f-CDG" };
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/browsers-revalidate": { body: "<p>an hour at the edge</p>", headers: { ...cloudflare, "cache-control": "public, max-age=0, s-maxage=3600" } },
      },
    });
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`http://${site.domain}/browsers-revalidate`], region: ["fr"] } });
    expect(queued.status).toBe(202);
    const before = Date.now();
    const run = await ended(queued.body.run_id);
    expect(run.status).toBe("done");
    expect(run.summary).toMatchObject({ total_calls: 1, cache_misses: 1, not_cached: { miss: 1 } });
    expect(run.summary.not_cached.no_cache).toBeUndefined();
    for (const advice of run.summary.advice as { message: string }[]) expect(advice.message).not.toMatch(/s-maxage/i);

    const results = await api("GET", `/v1/runs/${run.id}/results`, { key });
    expect(results.status).toBe(200);
    const [row] = results.body.data;
    expect(row).toMatchObject({ reason: "miss", cache_status: "miss", shared_lifetime_seconds: 3600, age_seconds: expect.any(Number) });
    expect(row.age_seconds).toBeLessThanOrEqual(1);
    // Fresh for an hour from its arrival, less the second of the Date header's rounding.
    const freshUntil = Date.parse(row.fresh_until);
    expect(freshUntil).toBeGreaterThanOrEqual(before + 3_598_000);
    expect(freshUntil).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const csv = await api("GET", `/v1/runs/${run.id}/results?format=csv`, { key });
    const [header, line] = String(csv.body).trim().split("\r\n");
    expect(header!.split(",").slice(-3)).toEqual(["shared_lifetime_seconds", "age_seconds", "fresh_until"]);
    expect(line!.split(",").slice(-3)).toEqual(["3600", String(row.age_seconds), row.fresh_until]);
  });
});

describe("verify", () => {
  it("asks each cacheable miss once more after the run's calls, counted apart in summary.verified", async () => {
    const site = await createValidatedSite(key);
    await serveSite(site.domain, {
      routes: {
        [`/${site.validation_token}.html`]: { body: site.validation_token },
        "/cold": { body: "<p>cold</p>", headers: { "cf-cache-status": "MISS", "cf-ray": "8c1f2a3b4c5d6e7f-CDG", "cache-control": "public, s-maxage=60" } },
        "/hit": { body: "<p>hit</p>", headers: { "cf-cache-status": "HIT", "cf-ray": "8c1f2a3b4c5d6e7f-CDG" } },
      },
    });
    const queued = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`http://${site.domain}/cold`, `http://${site.domain}/hit`], region: ["fr"], verify: true } });
    expect(queued.status).toBe(202);
    const run = await ended(queued.body.run_id);
    expect(run.status).toBe("done");
    // This origin never stores anything: the miss stays a miss when asked again.
    expect(run.summary).toMatchObject({ total_calls: 2, cache_misses: 1, verified: { calls: 1, hits: 0 } });
    const log = await originLog(site.domain);
    expect(log.filter((line) => line === "GET /cold")).toHaveLength(2);
    expect(log.filter((line) => line === "GET /hit")).toHaveLength(1);
    const results = await api("GET", `/v1/runs/${run.id}/results`, { key });
    expect(results.body.data).toEqual([expect.objectContaining({ url: `http://${site.domain}/cold`, reason: "miss", verified_cache_status: "miss" })]);
  });
});
