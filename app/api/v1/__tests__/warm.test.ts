import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, createValidatedSite, newKey } from "./support/api";

let key: string;
beforeAll(async () => {
  key = await newKey();
});

const urlsOn = (domain: string, count: number) => Array.from({ length: count }, (_, i) => `https://${domain}/p/${i}`);

describe("POST /v1/sites/{siteId}/warm", () => {
  it("queues a warm of a validated site: 202 with the run id and URL count", async () => {
    const site = await createValidatedSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`, `https://www.${site.domain}/a`, `https://${site.domain}/`] } });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ run_id: expect.any(Number), url_count: 2, status: "pending" });
    const runs = await api("GET", `/v1/sites/${site.id}/warm-runs`, { key });
    expect(runs.body.data[0]).toMatchObject({ id: response.body.run_id, status: "pending", run_region: ["fr"], source_urls: [`https://${site.domain}/`, `https://www.${site.domain}/a`] });
    const run = await api("GET", `/v1/runs/${response.body.run_id}`, { key });
    expect(run.body).toMatchObject({ type: "warm", boost_id: null, boost_name: null, site_id: site.id, progress: { planned_calls: 2 } });
  });

  it("stores uk as gb and counts variations into the planned calls", async () => {
    const site = await createValidatedSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/warm`, {
      key,
      body: { urls: urlsOn(site.domain, 3), region: ["uk", "us"], variations: { user_agents: ["mobile", "desktop"], languages: ["fr-FR", "en-us"] } },
    });
    expect(response.status).toBe(202);
    const run = await api("GET", `/v1/runs/${response.body.run_id}`, { key });
    expect(run.body.region).toEqual(["gb", "us"]);
    expect(run.body.variations).toEqual({ user_agents: ["mobile", "desktop"], languages: ["fr-FR", "en-US"] });
    expect(run.body.progress.planned_calls).toBe(3 * 2 * 2 * 2);
  });

  it("answers 409 for a site that is not validated, and queues nothing", async () => {
    const site = await createSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`] } });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatch(/not validated/);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(0);
  });

  it("answers 409 while a warm of the site is pending", async () => {
    const site = await createValidatedSite(key);
    expect((await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`] } })).status).toBe(202);
    const second = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/b`] } });
    expect(second.status).toBe(409);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body.total).toBe(1);
  });

  it("names the offending URL when one is not on the site's domain", async () => {
    const site = await createValidatedSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`, "https://elsewhere.test/x"] } });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe(`urls[1]: https://elsewhere.test/x is not on the site's domain ${site.domain}.`);
  });

  it("accepts exactly 5,000 URLs and refuses 0 or 5,001", async () => {
    const site = await createValidatedSite(key);
    expect((await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [] } })).status).toBe(422);
    const tooMany = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: urlsOn(site.domain, 5001) } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toBe("urls: must list at most 5000 URLs");
    const most = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: urlsOn(site.domain, 5000) } });
    expect(most.status).toBe(202);
    expect(most.body.url_count).toBe(5000);
  });

  it("answers 403 when the monthly quota cannot cover the calls, and queues nothing", async () => {
    const own = await newKey();
    const site = await createValidatedSite(own);
    // 5,000 URLs × 4 user agents × 3 regions = 60,000 calls > 50,000
    const response = await api("POST", `/v1/sites/${site.id}/warm`, {
      key: own,
      body: { urls: urlsOn(site.domain, 5000), region: ["fr", "de", "us"], variations: { user_agents: ["mobile", "desktop", "bot", "ai_crawler"] } },
    });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/quota/i);
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs`, { key: own })).body.total).toBe(0);
    expect((await api("GET", "/v1/me", { key: own })).body.quota.used).toBe(0);
  });

  it.each([
    ["no urls", {}],
    ["urls not a list", { urls: "https://x.test/" }],
    ["a URL that is not a string", { urls: [42] }],
    ["an unknown region", { urls: ["https://x.test/"], region: ["mars"] }],
    ["an empty region list", { urls: ["https://x.test/"], region: [] }],
    ["an unknown user agent", { urls: ["https://x.test/"], variations: { user_agents: ["fridge"] } }],
    ["a malformed language", { urls: ["https://x.test/"], variations: { languages: ["french"] } }],
  ])("refuses %s with 422", async (_label, body) => {
    const site = await createValidatedSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/warm`, { key, body });
    expect(response.status).toBe(422);
    expect(response.body.error).toBeTypeOf("string");
  });

  it("answers 404 for an unknown site", async () => {
    expect((await api("POST", "/v1/sites/999999/warm", { key, body: { urls: ["https://x.test/"] } })).status).toBe(404);
  });
});

describe("GET /v1/sites/{siteId}/warm-runs", () => {
  it("lists the site's warm runs newest first, with paging edges", async () => {
    const site = await createValidatedSite(key);
    const first = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`https://${site.domain}/`] } });
    const page = await api("GET", `/v1/sites/${site.id}/warm-runs?limit=1&offset=0`, { key });
    expect(page.body).toMatchObject({ total: 1, limit: 1, offset: 0 });
    expect(page.body.data[0]).toEqual({
      id: first.body.run_id,
      status: "pending",
      status_message: null,
      source_urls: [`https://${site.domain}/`],
      url_count: 1,
      run_region: ["fr"],
      started_at: null,
      finished_at: null,
      summary: { total_calls: 0, successful_calls: 0, failed_calls: 0, cache_hits: 0, average_response_time_ms: 0, pops: {} },
      progress: { planned_calls: 1, completed_calls: 0 },
      created_at: expect.any(String),
    });
    for (const query of ["limit=0", "limit=101", "limit=abc", "offset=-1", "offset=1.5"]) {
      expect((await api("GET", `/v1/sites/${site.id}/warm-runs?${query}`, { key })).status, query).toBe(422);
    }
    expect((await api("GET", `/v1/sites/${site.id}/warm-runs?limit=100`, { key })).status).toBe(200);
    expect((await api("GET", "/v1/sites/999999/warm-runs", { key })).status).toBe(404);
  });
});
