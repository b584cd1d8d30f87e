import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { addSitemap, api, createSite, createValidatedSite, newKey, originUserAgents, serveSite } from "./support/api";

// Request profiles, cookie sets and encodings as an integrator meets them: the estimate is the calls
// made, per region and per variant; the Basic auth password goes in and never comes out.

const PASSWORD = `pw-${randomBytes(12).toString("hex")}`;
let key: string;

beforeAll(async () => {
  key = await newKey();
});

async function ended(runId: number) {
  await expect.poll(async () => (await api("GET", `/v1/runs/${runId}`, { key })).body.status, { timeout: 30_000 }).toBe("done");
  return (await api("GET", `/v1/runs/${runId}`, { key })).body;
}

describe("a boost with cookie sets, encodings and a custom user agent", () => {
  it("makes the calls its estimate said, in all, per region and per variant", async () => {
    const site = await createSite(key);
    const urls = [0, 1, 2].map((i) => `<url><loc>http://${site.domain}/p/${i}</loc></url>`).join("");
    await serveSite(site.domain, { routes: { "/sitemap.xml": { body: `<urlset>${urls}</urlset>`, headers: { "content-type": "application/xml" } } }, fallback: { body: "page" } });
    const sitemap = await addSitemap(key, site.id, `http://${site.domain}/sitemap.xml`);
    await expect.poll(async () => (await api("GET", `/v1/sites/${site.id}/sitemaps/${sitemap.id}`, { key })).body.status, { timeout: 20_000 }).toBe("done");
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: {
        name: "Currencies",
        source_type: "sitemap",
        sitemap_ids: [sitemap.id],
        region: ["fr", "de"],
        variations: {
          user_agents: ["desktop", "mobile"],
          cookie_sets: [
            { name: "USD", cookies: { currency: "USD" } },
            { name: "EUR", cookies: { currency: "EUR" } },
          ],
          encodings: ["zstd", "br"],
        },
        request_profile: { custom_user_agents: ["ShopApp/3.1"] },
      },
    });
    expect(boost.status).toBe(201);
    const estimate = (await api("GET", `/v1/boosts/${boost.body.id}/estimate`, { key })).body;
    // 3 URLs × 3 agents × 2 cookie sets × 2 encodings × 2 regions.
    expect(estimate).toMatchObject({ urls: 3, calls: 72, calls_by_region: { fr: 36, de: 36 } });
    expect(estimate.calls_by_variant).toHaveLength(12);

    const triggered = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
    const run = await ended(triggered.body.run_id);
    expect(run.summary.total_calls).toBe(estimate.calls);
    expect(Object.fromEntries(run.regions_breakdown.map((r: { region: string; total_calls: number }) => [r.region, r.total_calls]))).toEqual(estimate.calls_by_region);
    expect(run.variants_breakdown.map(({ hits: _hits, ...variant }: { hits: number }) => variant)).toEqual(estimate.calls_by_variant);
    expect(new Set((await originUserAgents(site.domain)).map((r) => r.user_agent))).toContain("ShopApp/3.1");
  });

  it("refuses a header that another field sets with 422, naming the header and the field", async () => {
    const site = await createSite(key);
    for (const [name, field] of [
      ["Cookie", "`cookies`"],
      ["Authorization", "`basic_auth`"],
      ["Proxy-Authorization", "a proxy"],
    ]) {
      const response = await api("POST", `/v1/sites/${site.id}/boosts`, {
        key,
        body: { name: "Bad", source_type: "csv", source_url: "https://files.example.org/u.csv", region: ["fr"], request_profile: { headers: { [name!]: "x" } } },
      });
      expect(response.status).toBe(422);
      expect(response.body.error).toContain(`request_profile.headers.${name}: may not be set here:`);
      expect(response.body.error).toContain(field);
    }
  });

  it("takes the profile's fields at the top level of the body too, but not both forms at once", async () => {
    const site = await createSite(key);
    const body = { name: "Top level", source_type: "csv", source_url: "https://files.example.org/u.csv", region: ["fr"] };
    const created = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { ...body, headers: { "X-Preview": "1" }, cookies: { consent: "all" } } });
    expect(created.status).toBe(201);
    expect(created.body.request_profile).toEqual({ headers: { "x-preview": "1" }, cookies: { consent: "all" } });
    const refusedHeader = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { ...body, headers: { Cookie: "a=1" } } });
    expect(refusedHeader.status).toBe(422);
    const both = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { ...body, cookies: { a: "1" }, request_profile: { cookies: { b: "2" } } } });
    expect(both.status).toBe(422);
    expect(both.body.error).toContain("not both");
  });

  it("an update with some of the profile's fields at the top level changes those only, by PATCH and by PUT", async () => {
    const site = await createSite(key);
    const created = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Partial", source_type: "csv", source_url: "https://files.example.org/u.csv", region: ["fr"], headers: { "X-Preview": "1" }, cookies: { consent: "all" } },
    });
    expect(created.status).toBe(201);
    const patched = await api("PATCH", `/v1/boosts/${created.body.id}`, { key, body: { cookies: { currency: "USD" } } });
    expect(patched.status).toBe(200);
    expect(patched.body.request_profile).toEqual({ headers: { "x-preview": "1" }, cookies: { currency: "USD" } });
    const put = await api("PUT", `/v1/boosts/${created.body.id}`, { key, body: { headers: { "X-Stage": "2" } } });
    expect(put.body.request_profile).toEqual({ headers: { "x-stage": "2" }, cookies: { currency: "USD" } });
    const emptied = await api("PATCH", `/v1/boosts/${created.body.id}`, { key, body: { headers: {} } });
    expect(emptied.body.request_profile).toEqual({ cookies: { currency: "USD" } });
    // request_profile still replaces the whole profile.
    const replaced = await api("PATCH", `/v1/boosts/${created.body.id}`, { key, body: { request_profile: { headers: { "X-Only": "1" } } } });
    expect(replaced.body.request_profile).toEqual({ headers: { "x-only": "1" } });
  });
});

describe("a Basic auth password", () => {
  it("is accepted, sent, and never answered nor logged", async () => {
    const site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { body: "page" } });
    const profile = { headers: { "x-stage": "1" }, basic_auth: { username: "stage", password: PASSWORD } };
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Staging", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"], request_profile: profile },
    });
    expect(boost.status).toBe(201);
    expect(boost.body.request_profile).toEqual({ headers: { "x-stage": "1" }, basic_auth: { username: "stage", password_set: true } });
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`http://${site.domain}/`], request_profile: profile } });
    expect(warm.status).toBe(202);
    const run = await ended(warm.body.run_id);
    expect(run.request_profile).toEqual({ headers: { "x-stage": "1" }, basic_auth: { username: "stage", password_set: true } });
    const answers = [
      boost.body,
      run,
      (await api("GET", `/v1/boosts/${boost.body.id}`, { key })).body,
      (await api("GET", `/v1/sites/${site.id}/boosts`, { key })).body,
      (await api("PUT", `/v1/boosts/${boost.body.id}`, { key, body: { request_profile: { basic_auth: { username: "stage" } } } })).body,
      (await api("GET", `/v1/sites/${site.id}/warm-runs`, { key })).body,
    ];
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(PASSWORD);
      expect(JSON.stringify(answer)).not.toContain("password_encrypted");
    }
    expect(answers[4].request_profile).toEqual({ basic_auth: { username: "stage", password_set: true } });
    // A top-level field changes that field only: the stored password stays.
    const cookiesOnly = await api("PATCH", `/v1/boosts/${boost.body.id}`, { key, body: { cookies: { consent: "all" } } });
    expect(cookiesOnly.body.request_profile).toEqual({ cookies: { consent: "all" }, basic_auth: { username: "stage", password_set: true } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(Buffer.from(`stage:${PASSWORD}`).toString("base64"));
  });
});
