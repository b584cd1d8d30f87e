import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, createSite, createValidatedSite, newKey, serveSite, uniqueDomain } from "./support/api";

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 2_000_000_000;
const QUOTA = inject("monthlyQuota"); // 50,000 calls per account and month in these tests
const ALL_USER_AGENTS = ["mobile", "desktop", "bot", "ai_crawler"];

let key: string;

beforeAll(async () => {
  key = await newKey();
});

type Site = { id: number; domain: string };

/** `count` distinct URLs on the site's domain. */
const urlsOn = (site: Site, count: number) => Array.from({ length: count }, (_, i) => `https://${site.domain}/products/${i}`);

const warm = (owner: string, site: Site, body: Record<string, unknown>) => api("POST", `/v1/sites/${site.id}/warm`, { key: owner, body });
const warmRuns = (owner: string, site: Site, query = "") => api("GET", `/v1/sites/${site.id}/warm-runs${query}`, { key: owner });
const quotaOf = async (owner: string) => (await api("GET", "/v1/me", { key: owner })).body.quota as { used: number; remaining: number; limit: number };
const idsOf = (response: { body: { data: { id: number }[] } }) => response.body.data.map((run) => run.id);

/** A validated site whose pages answer slowly: a warm run of it stays in progress for a while. */
async function slowSite(owner: string) {
  const site = await createValidatedSite(owner);
  await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html>slow</html>", delayMs: 10_000 } });
  return site;
}

describe("POST /v1/sites/{siteId}/warm", () => {
  it("refuses to warm a site that is not validated yet (409) and queues nothing", async () => {
    const site = await createSite(key);
    const response = await warm(key, site, { urls: [`https://${site.domain}/`] });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatch(/validat/);
    expect((await warmRuns(key, site)).body.total).toBe(0);
  });

  it("queues a warm of a validated site: 202 with the run id, the URL count and status pending", async () => {
    const site = await createValidatedSite(key);
    const response = await warm(key, site, { urls: [`https://${site.domain}/`, `https://${site.domain}/shoes?size=42`] });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ run_id: expect.any(Number), url_count: 2, status: "pending" });
    expect(idsOf(await warmRuns(key, site))).toEqual([response.body.run_id]);
    const run = await api("GET", `/v1/runs/${response.body.run_id}`, { key });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ id: response.body.run_id, type: "warm", site_id: site.id });
  });

  it("counts a URL listed several times once, in the answer, the run and the quota", async () => {
    const site = await createValidatedSite(key);
    const [home, shoes] = [`https://${site.domain}/`, `https://${site.domain}/shoes`];
    const before = await quotaOf(key);
    const response = await warm(key, site, { urls: [home, shoes, home, shoes, home] });
    expect(response.status).toBe(202);
    expect(response.body.url_count).toBe(2);
    const [run] = (await warmRuns(key, site)).body.data;
    expect([...run.source_urls].sort()).toEqual([home, shoes].sort());
    expect((await quotaOf(key)).used).toBe(before.used + 2);
  });

  it("accepts the www. variant of the domain and plain http", async () => {
    const site = await createValidatedSite(key);
    const response = await warm(key, site, { urls: [`https://www.${site.domain}/`, `http://${site.domain}/about`] });
    expect(response.status).toBe(202);
    expect(response.body.url_count).toBe(2);
  });

  it("warms from fr when no region is given", async () => {
    const site = await createValidatedSite(key);
    expect((await warm(key, site, { urls: urlsOn(site, 1) })).status).toBe(202);
    expect((await warmRuns(key, site)).body.data[0].run_region).toEqual(["fr"]);
  });

  it.each([
    [["uk"], ["gb"]],
    [["gb", "uk"], ["gb"]],
    [
      ["de", "us", "es"],
      ["de", "us", "es"],
    ],
  ])("warms from the regions %j, stored as %j", async (region, stored) => {
    const site = await createValidatedSite(key);
    expect((await warm(key, site, { urls: urlsOn(site, 1), region })).status).toBe(202);
    expect((await warmRuns(key, site)).body.data[0].run_region).toEqual(stored);
  });

  it("refuses a URL on another domain with 422 naming the URL and its index, and queues nothing", async () => {
    const site = await createValidatedSite(key);
    const stray = `https://${uniqueDomain("elsewhere")}/products/1`;
    const response = await warm(key, site, { urls: [...urlsOn(site, 2), stray, ...urlsOn(site, 3)] });
    expect(response.status).toBe(422);
    expect(response.body.error).toContain("urls[2]");
    expect(response.body.error).toContain(stray);
    expect((await warmRuns(key, site)).body.total).toBe(0);
  });

  it.each([
    ["a subdomain", (site: Site) => `https://blog.${site.domain}/`],
    ["a non-http URL", (site: Site) => `ftp://${site.domain}/file`],
    ["a relative URL", () => "/products/1"],
    ["a URL without a scheme", (site: Site) => `${site.domain}/products/1`],
  ])("refuses %s with 422 naming its index", async (_label, bad) => {
    const site = await createValidatedSite(key);
    const response = await warm(key, site, { urls: [urlsOn(site, 1)[0], bad(site)] });
    expect(response.status).toBe(422);
    expect(response.body.error).toContain("urls[1]");
    expect((await warmRuns(key, site)).body.total).toBe(0);
  });

  it.each([
    ["no URL", 0],
    ["5,001 URLs", 5_001],
  ])("refuses %s with 422 and queues nothing", async (_label, count) => {
    const site = await createValidatedSite(key);
    const response = await warm(key, site, { urls: urlsOn(site, count) });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/^urls: /);
    expect((await warmRuns(key, site)).body.total).toBe(0);
  });

  it("accepts exactly 5,000 URLs", async () => {
    const site = await createValidatedSite(key);
    const response = await warm(key, site, { urls: urlsOn(site, 5_000) });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ run_id: expect.any(Number), url_count: 5_000, status: "pending" });
  });

  it("answers 409 to a second warm while the first is still pending or running, but warms another site", async () => {
    const site = await slowSite(key);
    const first = await warm(key, site, { urls: urlsOn(site, 1) });
    expect(first.status).toBe(202);
    const second = await warm(key, site, { urls: urlsOn(site, 2) });
    expect(second.status).toBe(409);
    expect(second.body.error).toEqual(expect.any(String));
    expect(idsOf(await warmRuns(key, site))).toEqual([first.body.run_id]);

    const other = await createValidatedSite(key);
    expect((await warm(key, other, { urls: urlsOn(other, 1) })).status).toBe(202);
  });

  it("answers 404 for an unknown site and for another account's site", async () => {
    const site = await createValidatedSite(key);
    const unknown = await api("POST", `/v1/sites/${MISSING_ID}/warm`, { key, body: { urls: urlsOn(site, 1) } });
    expect(unknown.status).toBe(404);
    const stranger = await newKey();
    const foreign = await warm(stranger, site, { urls: urlsOn(site, 1) });
    expect(foreign.status).toBe(404);
    expect((await warmRuns(key, site)).body.total).toBe(0);
  });
});

describe("the monthly call quota", () => {
  let account: string; // an account of its own: these warms use up its quota

  beforeAll(async () => {
    account = await newKey();
  });

  it("refuses with 403 a warm needing more calls than the month allows, and queues nothing", async () => {
    const site = await createValidatedSite(account);
    const body = { urls: urlsOn(site, 5_000), region: ["fr", "de", "es"], variations: { user_agents: ALL_USER_AGENTS } };
    expect(5_000 * 4 * 3).toBeGreaterThan(QUOTA);
    const response = await warm(account, site, body);
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/quota/i);
    expect((await warmRuns(account, site)).body.total).toBe(0);
    expect(await quotaOf(account)).toMatchObject({ limit: QUOTA, used: 0, remaining: QUOTA });
  });

  it("reserves each queued warm's calls (URLs × user agents × languages × regions) and refuses what no longer fits", async () => {
    const sites = [await createValidatedSite(account), await createValidatedSite(account), await createValidatedSite(account)];

    // 5,000 × 2 × 2 × 2 = 40,000 calls
    const big = await warm(account, sites[0]!, {
      urls: urlsOn(sites[0]!, 5_000),
      region: ["fr", "us"],
      variations: { user_agents: ["mobile", "desktop"], languages: ["fr-FR", "en-US"] },
    });
    expect(big.status).toBe(202);
    expect(await quotaOf(account)).toMatchObject({ used: 40_000, remaining: QUOTA - 40_000 });

    // 5,000 × 3 regions = 15,000 calls: more than the 10,000 left
    const tooMany = await warm(account, sites[1]!, { urls: urlsOn(sites[1]!, 5_000), region: ["fr", "de", "es"] });
    expect(tooMany.status).toBe(403);
    expect((await warmRuns(account, sites[1]!)).body.total).toBe(0);
    expect((await quotaOf(account)).used).toBe(40_000);

    // 5,000 × 2 user agents = 10,000 calls: exactly what is left
    const exact = await warm(account, sites[1]!, { urls: urlsOn(sites[1]!, 5_000), variations: { user_agents: ["bot", "ai_crawler"] } });
    expect(exact.status).toBe(202);
    expect(await quotaOf(account)).toMatchObject({ used: QUOTA, remaining: 0 });

    const oneMore = await warm(account, sites[2]!, { urls: urlsOn(sites[2]!, 1) });
    expect(oneMore.status).toBe(403);
    expect((await warmRuns(account, sites[2]!)).body.total).toBe(0);
  });
});

describe("GET /v1/sites/{siteId}/warm-runs", () => {
  it("describes each warm run and pages as {data, total, limit, offset}", async () => {
    const site = await slowSite(key);
    const urls = [`https://${site.domain}/`, `https://${site.domain}/shoes`];
    const queued = await warm(key, site, { urls, region: ["uk", "de"] });
    expect(queued.status).toBe(202);

    const response = await warmRuns(key, site);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect(response.body.data).toHaveLength(1);
    const run = response.body.data[0];
    expect(run).toMatchObject({ id: queued.body.run_id, source_urls: urls, run_region: ["gb", "de"] });
    expect(["pending", "running"]).toContain(run.status);
    expect(run.status_message === null || typeof run.status_message === "string").toBe(true);
    expect(run.started_at === null || iso.test(run.started_at)).toBe(true);
    expect(run.finished_at).toBeNull();
    expect(run.created_at).toMatch(iso);
    expect(run.summary).toMatchObject({
      total_calls: expect.any(Number),
      successful_calls: expect.any(Number),
      failed_calls: expect.any(Number),
      cache_hits: expect.any(Number),
      average_response_time_ms: expect.any(Number),
    });
  });

  it("shows a site without warm runs an empty page", async () => {
    const site = await createSite(key);
    expect((await warmRuns(key, site)).body).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
  });

  it("lists a site's warm runs newest first, with paging", async () => {
    const site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html>ok</html>" } });
    const first = await warm(key, site, { urls: urlsOn(site, 1) });
    expect(first.status).toBe(202);
    // One warm run per site may be pending or running: the next one waits for the first to end.
    await expect
      .poll(async () => (await api("GET", `/v1/runs/${first.body.run_id}`, { key })).body.status, {
        timeout: 30_000,
        interval: 500,
        message: "the first warm run (one URL answering 200 at once) should have ended within 30 s",
      })
      .toMatch(/^(done|failed|paused)$/);
    const second = await warm(key, site, { urls: urlsOn(site, 2) });
    expect(second.status).toBe(202);

    const all = await warmRuns(key, site);
    expect(all.body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(idsOf(all)).toEqual([second.body.run_id, first.body.run_id]);
    const page1 = await warmRuns(key, site, "?limit=1");
    expect(page1.body).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(idsOf(page1)).toEqual([second.body.run_id]);
    const page2 = await warmRuns(key, site, "?limit=1&offset=1");
    expect(idsOf(page2)).toEqual([first.body.run_id]);
    expect((await warmRuns(key, site, "?offset=5")).body).toEqual({ data: [], total: 2, limit: 20, offset: 5 });
  }, 60_000);

  it("lists only the warm runs of the site it names", async () => {
    const [one, two] = [await createValidatedSite(key), await createValidatedSite(key)];
    const warmed = await warm(key, one, { urls: urlsOn(one, 1) });
    expect(idsOf(await warmRuns(key, one))).toEqual([warmed.body.run_id]);
    expect((await warmRuns(key, two)).body.total).toBe(0);
  });

  it.each(["limit=0", "limit=101", "limit=abc", "limit=-1", "offset=-1", "offset=abc"])("refuses %s with 422", async (query) => {
    const site = await createSite(key);
    const response = await warmRuns(key, site, `?${query}`);
    expect(response.status).toBe(422);
    expect(response.body.error).toContain(query.split("=")[0]);
  });

  it("accepts limit=100", async () => {
    const site = await createSite(key);
    const response = await warmRuns(key, site, "?limit=100");
    expect(response.status).toBe(200);
    expect(response.body.limit).toBe(100);
  });

  it("answers 404 for an unknown site and for another account's site", async () => {
    expect((await api("GET", `/v1/sites/${MISSING_ID}/warm-runs`, { key })).status).toBe(404);
    const stranger = await newKey();
    const theirs = await createSite(stranger);
    const response = await warmRuns(key, theirs);
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual(expect.any(String));
  });
});
