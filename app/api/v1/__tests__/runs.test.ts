import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, createValidatedSite, newKey, uniqueEmail } from "./support/api";

const EMPTY_SUMMARY = {
  total_calls: 0,
  successful_calls: 0,
  failed_calls: 0,
  cache_hits: 0,
  average_response_time_ms: 0,
  pops: {},
  not_cached: {},
  blocked_by: {},
  cache_misses: 0,
  average_hit_response_time_ms: null,
  average_miss_response_time_ms: null,
  verified: null,
  visitors: null,
  advice: [],
};
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** Creates a CSV boost on the site and queues a run of it (its CSV cannot be fetched here, so the run stays pending while the planning job retries). */
async function boostWithRun(key: string, siteId: number, name = "Nightly", region = ["fr"]) {
  const boost = await api("POST", `/v1/sites/${siteId}/boosts`, {
    key,
    body: { name, source_type: "csv", source_url: "https://files.example.org/urls.csv", region },
  });
  if (boost.status !== 201) throw new Error(`boost creation failed: ${boost.status} ${JSON.stringify(boost.body)}`);
  const run = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
  if (run.status !== 202) throw new Error(`trigger failed: ${run.status} ${JSON.stringify(run.body)}`);
  return { boostId: boost.body.id as number, runId: run.body.run_id as number };
}

async function warm(key: string, site: { id: number; domain: string }, paths = ["/"]) {
  const response = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: paths.map((p) => `https://${site.domain}${p}`) } });
  if (response.status !== 202) throw new Error(`warm failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { run_id: number; url_count: number; status: string };
}

const ids = (response: { body: { data: { id: number }[] } }) => response.body.data.map((run) => run.id);

let owner: string; // an account with three boost runs and one warm run, made below
let writer: string; // the same account, without runs:read
let empty: string; // an account that never runs anything
let stranger: string; // another account
let key: string; // an account for the tests that make their own runs
let runs: { boostId: number; runId: number }[]; // the owner's boost runs, oldest first
let ownerWarmRunId: number;

beforeAll(async () => {
  // Every key this file needs, made once: each is a CLI process.
  const email = uniqueEmail();
  owner = await newKey("all", email);
  writer = await newKey("boosts:read,boosts:write", email);
  empty = await newKey();
  stranger = await newKey();
  key = await newKey();

  const site = await createValidatedSite(owner);
  runs = [await boostWithRun(owner, site.id, "first")];
  ownerWarmRunId = (await warm(owner, site)).run_id; // a warm run between boost runs: never listed by GET /v1/runs
  runs.push(await boostWithRun(owner, site.id, "second"), await boostWithRun(owner, site.id, "third"));
});

describe("GET /v1/runs", () => {
  it("lists the account's boost runs newest first, 20 per page by default, without warm runs", async () => {
    const response = await api("GET", "/v1/runs", { key: owner });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(ids(response)).toEqual([runs[2]!.runId, runs[1]!.runId, runs[0]!.runId]);
    expect(response.body.data.map((run: { boost_id: number }) => run.boost_id)).toEqual([runs[2]!.boostId, runs[1]!.boostId, runs[0]!.boostId]);
    expect(ids(response)).not.toContain(ownerWarmRunId);
  });

  it("describes each run with its status, timings, summary and progress", async () => {
    const response = await api("GET", "/v1/runs?limit=1", { key: owner });
    expect(response.body.data[0]).toEqual({
      id: runs[2]!.runId,
      // The first run of its boost, whatever runs the organization had before.
      number: 1,
      boost_id: runs[2]!.boostId,
      status: "pending",
      status_message: null,
      started_at: null,
      finished_at: null,
      summary: EMPTY_SUMMARY,
      progress: { planned_calls: 0, completed_calls: 0 },
      created_at: iso,
      triggered_by: { kind: "api", label: expect.stringMatching(/^phk_/) },
      visit_share: null,
    });
  });

  it("filters by boost_id", async () => {
    const { boostId, runId } = runs[1]!;
    const response = await api("GET", `/v1/runs?boost_id=${boostId}`, { key: owner });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect(ids(response)).toEqual([runId]);
    expect(response.body.data[0].number).toBe(1);
  });

  it("pages with limit and offset", async () => {
    const [oldest, middle, newest] = runs.map((r) => r.runId);
    const first = await api("GET", "/v1/runs?limit=2", { key: owner });
    expect(first.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(ids(first)).toEqual([newest, middle]);
    const second = await api("GET", "/v1/runs?limit=2&offset=2", { key: owner });
    expect(second.body).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(ids(second)).toEqual([oldest]);
    const beyond = await api("GET", "/v1/runs?offset=10", { key: owner });
    expect(beyond.body).toEqual({ data: [], total: 3, limit: 20, offset: 10 });
    const largest = await api("GET", "/v1/runs?limit=100", { key: owner });
    expect(largest.status).toBe(200);
    expect(largest.body.limit).toBe(100);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=-5", "limit"],
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["offset=abc", "offset"],
    ["boost_id=abc", "boost_id"],
    ["boost_id=0", "boost_id"],
    ["boost_id=9999999999", "boost_id"],
  ])("refuses %s with 422", async (query, field) => {
    const response = await api("GET", `/v1/runs?${query}`, { key: owner });
    expect(response.status).toBe(422);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field }));
  });

  it("shows an account without runs an empty list", async () => {
    expect((await api("GET", "/v1/runs", { key: empty })).body).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
  });

  it("shows only the caller's account's runs, even when filtering by another account's boost", async () => {
    const strangerSite = await createSite(stranger);
    const theirs = await boostWithRun(stranger, strangerSite.id);

    const mine = await api("GET", "/v1/runs?limit=100", { key: owner });
    expect(mine.body.total).toBe(3);
    expect(ids(mine)).not.toContain(theirs.runId);

    const filtered = await api("GET", `/v1/runs?boost_id=${theirs.boostId}`, { key: owner });
    expect(filtered.status).toBe(200);
    expect(filtered.body).toMatchObject({ data: [], total: 0 });

    expect(ids(await api("GET", "/v1/runs", { key: stranger }))).toEqual([theirs.runId]);
  });

  it("drops the runs of a deleted boost", async () => {
    const site = await createSite(key);
    const kept = await boostWithRun(key, site.id, "kept");
    const deleted = await boostWithRun(key, site.id, "deleted");
    expect((await api("DELETE", `/v1/boosts/${deleted.boostId}`, { key })).status).toBe(204);
    const listed = ids(await api("GET", "/v1/runs?limit=100", { key }));
    expect(listed).toContain(kept.runId);
    expect(listed).not.toContain(deleted.runId);
    expect((await api("GET", `/v1/runs?boost_id=${deleted.boostId}`, { key })).body).toMatchObject({ data: [], total: 0 });
  });

  it("needs the runs:read scope", async () => {
    for (const path of ["/v1/runs", `/v1/runs/${runs[0]!.runId}`]) {
      const response = await api("GET", path, { key: writer });
      expect(response.status, path).toBe(403);
      expect(response.body.required_scope).toBe("runs:read");
    }
  });
});

describe("GET /v1/runs/{runId}", () => {
  it("serves a boost run with its boost's name and site", async () => {
    const site = await createSite(key);
    const { boostId, runId } = await boostWithRun(key, site.id, "Catalogue", ["uk", "us"]);
    const response = await api("GET", `/v1/runs/${runId}`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: runId,
      number: 1,
      type: "boost",
      boost_id: boostId,
      boost_name: "Catalogue",
      site_id: site.id,
      region: ["gb", "us"],
      variations: null,
      request_profile: null,
      status: "pending",
      status_message: null,
      started_at: null,
      finished_at: null,
      summary: EMPTY_SUMMARY,
      progress: { planned_calls: 0, completed_calls: 0 },
      bypassed_calls: 0,
      regions_breakdown: ["gb", "us"].map((region) => ({
        region,
        total_calls: 0,
        successful_calls: 0,
        failed_calls: 0,
        cache_hits: 0,
        bypassed_calls: 0,
        average_response_time_ms: 0,
        egress: "local",
        pops: [],
        reached: "unknown",
      })),
      pops_breakdown: [],
      // Its one variant, the default desktop call, with nothing counted yet.
      variants_breakdown: [{ user_agent: "desktop", language: null, cookie_set: null, encoding: null, calls: 0, hits: 0 }],
      failure_samples: [],
      slowdowns: [],
      created_at: iso,
      triggered_by: { kind: "api", label: expect.stringMatching(/^phk_/) },
      visit_share: null,
    });
  });

  it("serves an on-demand warm run, which GET /v1/runs does not list", async () => {
    const site = await createValidatedSite(key);
    const queued = await warm(key, site, ["/", "/products"]);
    expect(queued).toEqual({ run_id: expect.any(Number), url_count: 2, status: "pending" });

    const response = await api("GET", `/v1/runs/${queued.run_id}`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: queued.run_id,
      // The site's first run without a boost.
      number: 1,
      type: "warm",
      boost_id: null,
      boost_name: null,
      site_id: site.id,
      region: ["fr"],
      // The worker plans and warms it within milliseconds: any state of its life may be read here.
      status: expect.stringMatching(/^(pending|running|done|failed)$/),
      progress: { planned_calls: 2, completed_calls: expect.any(Number) },
      created_at: iso,
    });
    expect(ids(await api("GET", "/v1/runs?limit=100", { key }))).not.toContain(queued.run_id);
    expect(ids(await api("GET", `/v1/sites/${site.id}/warm-runs`, { key }))).toEqual([queued.run_id]);
  });

  it("answers 404 for another account's boost run and warm run", async () => {
    for (const runId of [runs[0]!.runId, ownerWarmRunId]) {
      expect((await api("GET", `/v1/runs/${runId}`, { key: owner })).status).toBe(200);
      const response = await api("GET", `/v1/runs/${runId}`, { key: stranger });
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual(expect.any(String));
    }
  });

  it("answers 404 for an unknown run", async () => {
    expect((await api("GET", "/v1/runs/999999999", { key })).status).toBe(404);
  });

  it.each(["abc", "0", "-3", "1.5"])("answers 422 for the run id %s", async (runId) => {
    const response = await api("GET", `/v1/runs/${runId}`, { key });
    expect(response.status).toBe(422);
    expect(response.body.error).toEqual(expect.any(String));
  });
});
