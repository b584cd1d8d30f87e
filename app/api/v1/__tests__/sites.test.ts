import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, newKey, originLog, serveSite, uniqueDomain } from "./support/api";

let key: string;
beforeAll(async () => {
  key = await newKey();
});

describe("POST /v1/sites", () => {
  it("normalises the domain and returns the site with its validation token", async () => {
    const label = uniqueDomain();
    const response = await api("POST", "/v1/sites", { key, body: { domain: `https://WWW.${label.toUpperCase()}/` } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ domain: `www.${label}`, validated: false, validation_method: null, validated_at: null });
    expect(response.body.id).toBeTypeOf("number");
    expect(response.body.validation_token).toMatch(/^preheat-[0-9a-f]{32}$/);
    expect(new Date(response.body.created_at).toISOString()).toBe(response.body.created_at);
  });

  it("keeps a port and strips http://", async () => {
    const label = uniqueDomain();
    const response = await api("POST", "/v1/sites", { key, body: { domain: `http://${label}:8080` } });
    expect(response.status).toBe(201);
    expect(response.body.domain).toBe(`${label}:8080`);
  });

  it.each([
    ["a path", "example.com/shop"],
    ["a query", "example.com?x=1"],
    ["credentials", "user:pass@example.com"],
    ["an invalid host name", "exa mple.com"],
    ["a label starting with a hyphen", "-shop.example.com"],
    ["no top-level domain", "localhost"],
    ["an IP address", "127.0.0.1"],
    ["an empty string", ""],
    ["only a scheme", "https://"],
    ["a port out of range", "example.com:70000"],
    ["another scheme", "ftp://example.com"],
  ])("refuses %s with 422", async (_label, domain) => {
    const response = await api("POST", "/v1/sites", { key, body: { domain } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/domain/);
  });

  it.each([
    ["a missing domain", {}],
    ["a number", { domain: 42 }],
    ["null", { domain: null }],
  ])("refuses %s with 422", async (_label, body) => {
    const response = await api("POST", "/v1/sites", { key, body });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/^domain: /);
  });

  it("answers 409 for a domain already registered in the account, whatever its spelling", async () => {
    const domain = uniqueDomain();
    await createSite(key, domain);
    const again = await api("POST", "/v1/sites", { key, body: { domain: `https://${domain.toUpperCase()}/` } });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain(domain);
  });

  it("lets two accounts register the same domain", async () => {
    const domain = uniqueDomain();
    await createSite(key, domain);
    const other = await newKey();
    expect((await api("POST", "/v1/sites", { key: other, body: { domain } })).status).toBe(201);
  });
});

describe("GET and DELETE /v1/sites/{siteId}", () => {
  it("lists the account's sites newest first with paging", async () => {
    const own = await newKey();
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createSite(own));
    const page = await api("GET", "/v1/sites?limit=2&offset=0", { key: own });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.body.data.map((s: { id: number }) => s.id)).toEqual([created[2]!.id, created[1]!.id]);
    const rest = await api("GET", "/v1/sites?limit=2&offset=2", { key: own });
    expect(rest.body.data.map((s: { id: number }) => s.id)).toEqual([created[0]!.id]);
  });

  it("gets one site with its token, and deletes it with what it owns", async () => {
    const site = await createSite(key);
    const got = await api("GET", `/v1/sites/${site.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body.validation_token).toBe(site.validation_token);
    const sitemap = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `https://${site.domain}/sitemap.xml` } });
    expect(sitemap.status).toBe(201);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "b", source_type: "sitemap", region: ["fr"], sitemap_ids: [sitemap.body.id] } });
    expect(boost.status).toBe(201);
    const run = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
    expect(run.status).toBe(202);

    expect((await api("DELETE", `/v1/sites/${site.id}`, { key })).status).toBe(204);
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/boosts/${boost.body.id}`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/runs/${run.body.run_id}`, { key })).status).toBe(404);
    expect((await api("DELETE", `/v1/sites/${site.id}`, { key })).status).toBe(404);
  });
});

describe("POST /v1/sites/{siteId}/validate", () => {
  it("validates through the token file, over HTTP when HTTPS is refused", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } } });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "html_file" });
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body).toMatchObject({ validated: true, validation_method: "html_file" });
    expect(await originLog(site.domain)).toContain(`GET /${site.validation_token}.html`);

    const again = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ validated: true, already_validated: true });
  });

  it.each([
    ["name first, double quotes", (t: string) => `<meta name="service-token" content="${t}">`],
    ["content first, single quotes, upper case", (t: string) => `<META CONTENT='${t}' NAME='Service-Token' />`],
    ["unquoted content among other tags", (t: string) => `<meta charset=utf-8><title>x</title><meta name=service-token content=${t}>`],
  ])("validates through the homepage meta tag (%s)", async (_label, tag) => {
    const site = await createSite(key);
    await serveSite(site.domain, { routes: { "/": { body: `<!doctype html><html><head>${tag(site.validation_token)}</head><body>Shop</body></html>` } } });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "meta_tag" });
  });

  it("answers 422 when neither proof is there, and does not validate", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, {
      routes: { "/": { body: `<html><head></head><body><meta name="service-token" content="${site.validation_token}"></body></html>` } },
    });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ validated: false, error: "Validation token not found on the site.", code: "ownership_not_proven" });
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body.validated).toBe(false);
  });

  it("does not trust a site that answers 200 for every path", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html><body>soft 404</body></html>" } });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(422);
  });

  it("answers 404 for an unknown site", async () => {
    expect((await api("POST", "/v1/sites/999999/validate", { key })).status).toBe(404);
  });
});

describe("PATCH /v1/sites/{siteId}", () => {
  it("sets the site's pace, resets it with null, and shows it in the site object", async () => {
    const site = await createSite(key);
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body).toMatchObject({ max_concurrency: 4, max_requests_per_second: null });
    const set = await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: 3, max_requests_per_second: 2.5 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: site.id, max_concurrency: 3, max_requests_per_second: 2.5 });
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_requests_per_second: null } })).body).toMatchObject({ max_concurrency: 3, max_requests_per_second: null });
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: null } })).body).toMatchObject({ max_concurrency: 4 });
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: 16 } })).body.max_concurrency).toBe(16);
  });

  it("refuses 0, more than the operator's maximum, and other bad values, changing nothing", async () => {
    const site = await createSite(key);
    for (const body of [
      { max_concurrency: 0 },
      { max_concurrency: 17 },
      { max_concurrency: 2.5 },
      { max_concurrency: "3" },
      { max_requests_per_second: 0 },
      { max_requests_per_second: -1 },
      { max_requests_per_second: 1001 },
    ]) {
      const response = await api("PATCH", `/v1/sites/${site.id}`, { key, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error).toMatch(/^max_(concurrency|requests_per_second)/);
    }
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body).toMatchObject({ max_concurrency: 4, max_requests_per_second: null });
  });

  it("needs sites:write and the caller's own site", async () => {
    const site = await createSite(key);
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key: await newKey("sites:read"), body: { max_concurrency: 2 } })).status).toBe(403);
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key: await newKey(), body: { max_concurrency: 2 } })).status).toBe(404);
  });
});
