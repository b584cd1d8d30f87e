import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, createValidatedSite, newKey, originLog, serveSite, uniqueDomain } from "./support/api";

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

  it("answers 422 when neither proof is there, says why for each method, and does not validate", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, {
      routes: { "/": { body: `<html><head></head><body><meta name="service-token" content="${site.validation_token}"></body></html>` } },
    });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ validated: false, code: "ownership_not_proven" });
    expect(response.body.error).toContain(`Token file: /${site.validation_token}.html answered 404, not 200.`);
    expect(response.body.error).toContain('Meta tag: the homepage\'s <head> has no <meta name="service-token"');
    expect(response.body.error).toContain("DNS TXT record: the DNS server refused the connection.");
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body.validated).toBe(false);
  });

  // The attack: a stranger registers a site whose every page repeats the address asked for (a soft
  // 404, a search page, a single-page app) and asks Preheat to validate it.
  it.each([
    ["200, repeating the address", 200],
    ["404, repeating the address", 404],
  ])("refuses a site that answers every path with %s, by both methods", async (_label, status) => {
    const site = await createSite(key);
    const echo = { status, body: "<html><head><title>Not here</title></head><body>Nothing at {{path}}. Try the search.</body></html>" };
    await serveSite(site.domain, { routes: { "/": echo }, fallback: echo });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("ownership_not_proven");
    expect((await api("GET", `/v1/sites/${site.id}`, { key })).body.validated).toBe(false);
    // The control file, a random name of the token's shape, is asked for every time.
    const controls = (await originLog(site.domain)).filter((line) => /^GET \/preheat-[0-9a-f]{32}\.html$/.test(line) && !line.includes(site.validation_token));
    expect(controls.length).toBeGreaterThan(0);
  });

  it("accepts a token file whose whole content is the token on a site that repeats addresses in its 200 pages", async () => {
    const site = await createSite(key);
    const echo = { status: 200, body: "<html><body>You asked for {{path}}</body></html>" };
    await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: `${site.validation_token}\n` } }, fallback: echo });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "html_file" });
    // The control, answered 200 with its address repeated, was asked all the same.
    expect((await originLog(site.domain)).some((line) => /^GET \/preheat-[0-9a-f]{32}\.html$/.test(line))).toBe(true);
  });

  it("says why a page that merely repeats the address proves nothing, even with the token in it; the meta tag still works there", async () => {
    const site = await createSite(key);
    const echo = { status: 200, body: "<html><body>You asked for {{path}}</body></html>" };
    await serveSite(site.domain, { routes: {}, fallback: echo });
    const refused = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain(
      `the site answers 200 for files that do not exist and repeats their address in the page, so only a file whose whole content is the token proves ownership there, and /${site.validation_token}.html holds more: publish the file with the token as its only content, or use the meta tag or the DNS record`,
    );

    await serveSite(site.domain, {
      routes: { "/": { body: `<html><head><meta name="service-token" content="${site.validation_token}"></head><body>You asked for /</body></html>` } },
      fallback: echo,
    });
    const validated = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({ validated: true, method: "meta_tag" });
  });

  it("does not trust a site that answers 200 for every path with one page, and says what to publish", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { status: 200, body: "<html><body>soft 404</body></html>" } });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(422);
    expect(response.body.error).toContain(
      "the site answers 200 for files that do not exist, so the token file proves nothing: publish the file with the token as its only content, or use the meta tag or the DNS record",
    );
  });

  it("accepts a real token file on a site that answers 200 for every other path with one page (a single-page app)", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, {
      routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } },
      fallback: { status: 200, body: "<html><body><div id=app></div></body></html>" },
    });
    const response = await api("POST", `/v1/sites/${site.id}/validate`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "html_file" });
  });

  it("shows when the proof will be looked for again", async () => {
    const site = await createValidatedSite(key);
    const got = (await api("GET", `/v1/sites/${site.id}`, { key })).body;
    expect(got.ownership_recheck).toMatchObject({ proof_missing_since: null, unvalidates_at: null, problem: null });
    const days = (Date.parse(got.ownership_recheck.next_check_at) - Date.parse(got.ownership_recheck.last_checked_at)) / 86_400_000;
    expect(days).toBe(30);
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
