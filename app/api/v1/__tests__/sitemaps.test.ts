import { beforeAll, describe, expect, it } from "vitest";
import { addSitemap, api, baseUrl, createSite, createValidatedSite, newKey, originUserAgents, serveSite, uniqueDomain } from "./support/api";

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const MISSING_ID = 2_000_000_000;

let key: string;
let site: { id: number; domain: string };

beforeAll(async () => {
  key = await newKey();
  site = await createSite(key);
});

const sitemapsOf = async (siteId: number, query = "") => api("GET", `/v1/sites/${siteId}/sitemaps${query}`, { key });
const idsOf = (response: { body: { data: { id: number }[] } }) => response.body.data.map((s) => s.id);

describe("POST /v1/sites/{siteId}/sitemaps", () => {
  it("adds a sitemap that waits to be processed", async () => {
    const url = `https://${site.domain}/sitemap.xml`;
    const response = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      site_id: site.id,
      url,
      status: "waiting",
      status_message: null,
      url_count: 0,
      last_processed_at: null,
      last_changed_at: null,
      created_at: iso,
    });
  });

  it.each([
    ["the www. variant of a bare domain", (bare: string) => bare, (bare: string) => `https://www.${bare}/sitemap.xml`],
    ["the bare domain of a www. site", (bare: string) => `www.${bare}`, (bare: string) => `https://${bare}/sitemap.xml`],
    ["an http:// URL", (bare: string) => bare, (bare: string) => `http://${bare}/feeds/products.rss`],
  ])("accepts %s", async (_label, siteDomain, sitemapUrl) => {
    const bare = uniqueDomain();
    const own = await createSite(key, siteDomain(bare));
    const response = await api("POST", `/v1/sites/${own.id}/sitemaps`, { key, body: { url: sitemapUrl(bare) } });
    expect(response.status).toBe(201);
    expect(response.body.url).toBe(sitemapUrl(bare));
  });

  it.each([
    ["another domain", () => `https://${uniqueDomain("other")}/sitemap.xml`],
    ["a subdomain", () => `https://blog.${site.domain}/sitemap.xml`],
    ["a domain that only starts with the site's", () => `https://${site.domain}.evil.test/sitemap.xml`],
    ["a non-http URL", () => `ftp://${site.domain}/sitemap.xml`],
    ["a relative URL", () => "/sitemap.xml"],
    ["a URL without a scheme", () => `${site.domain}/sitemap.xml`],
    ["credentials in the URL", () => `https://user:secret@${site.domain}/sitemap.xml`],
    ["an empty string", () => ""],
  ])("refuses %s with 422 and adds nothing", async (_label, url) => {
    const before = idsOf(await sitemapsOf(site.id, "?limit=100"));
    const response = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: url() } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/^url: /);
    expect(idsOf(await sitemapsOf(site.id, "?limit=100"))).toEqual(before);
  });

  it("answers 409 for a sitemap the site already has, and keeps one", async () => {
    const own = await createSite(key);
    const url = `https://${own.domain}/sitemap_index.xml`;
    await addSitemap(key, own.id, url);
    const again = await api("POST", `/v1/sites/${own.id}/sitemaps`, { key, body: { url } });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain(url);
    const sameUrlOtherCase = await api("POST", `/v1/sites/${own.id}/sitemaps`, { key, body: { url: url.replace(own.domain, own.domain.toUpperCase()) } });
    expect(sameUrlOtherCase.status).toBe(409);
    expect((await sitemapsOf(own.id)).body.total).toBe(1);
  });

  it("lets another account register the same sitemap for its own site", async () => {
    const own = await createSite(key);
    const url = `https://${own.domain}/sitemap.xml`;
    await addSitemap(key, own.id, url);
    const other = await newKey();
    const theirs = await createSite(other, own.domain);
    expect((await api("POST", `/v1/sites/${theirs.id}/sitemaps`, { key: other, body: { url } })).status).toBe(201);
  });

  it("answers 404 for an unknown site", async () => {
    const response = await api("POST", `/v1/sites/${MISSING_ID}/sitemaps`, { key, body: { url: `https://${site.domain}/other.xml` } });
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual(expect.any(String));
  });
});

describe("listing, reading and deleting sitemaps", () => {
  it("lists the site's sitemaps newest first as {data, total, limit, offset}", async () => {
    const own = await createSite(key);
    const added = [];
    for (const name of ["a", "b", "c"]) added.push(await addSitemap(key, own.id, `https://${own.domain}/${name}.xml`));

    const all = await sitemapsOf(own.id);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(idsOf(all)).toEqual([added[2]!.id, added[1]!.id, added[0]!.id]);
    expect(all.body.data[0]).toMatchObject({ site_id: own.id, url: `https://${own.domain}/c.xml` });

    const first = await sitemapsOf(own.id, "?limit=2");
    expect(first.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(idsOf(first)).toEqual([added[2]!.id, added[1]!.id]);
    const rest = await sitemapsOf(own.id, "?limit=2&offset=2");
    expect(rest.body).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(idsOf(rest)).toEqual([added[0]!.id]);
  });

  it("lists no sitemaps for a site without any", async () => {
    const own = await createSite(key);
    expect((await sitemapsOf(own.id)).body).toEqual({ data: [], total: 0, limit: 20, offset: 0 });
  });

  it.each(["limit=0", "limit=101", "limit=abc", "offset=-1"])("refuses the page %s with 422", async (query) => {
    const response = await sitemapsOf(site.id, `?${query}`);
    expect(response.status).toBe(422);
    expect(response.body.error).toContain(query.split("=")[0]);
  });

  it("gets one sitemap", async () => {
    const url = `https://${site.domain}/products.xml`;
    const added = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url } });
    const response = await api("GET", `/v1/sites/${site.id}/sitemaps/${added.body.id}`, { key });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: added.body.id, site_id: site.id, url, created_at: added.body.created_at });
    expect(["waiting", "processing", "done", "error"]).toContain(response.body.status);
  });

  it("deletes a sitemap: 204, then 404", async () => {
    const added = await addSitemap(key, site.id, `https://${site.domain}/to-delete.xml`);
    const path = `/v1/sites/${site.id}/sitemaps/${added.id}`;
    const deleted = await api("DELETE", path, { key });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await api("GET", path, { key })).status).toBe(404);
    expect((await api("DELETE", path, { key })).status).toBe(404);
    expect(idsOf(await sitemapsOf(site.id, "?limit=100"))).not.toContain(added.id);
  });

  it("can add a deleted sitemap again", async () => {
    const url = `https://${site.domain}/again.xml`;
    const added = await addSitemap(key, site.id, url);
    expect((await api("DELETE", `/v1/sites/${site.id}/sitemaps/${added.id}`, { key })).status).toBe(204);
    expect((await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url } })).status).toBe(201);
  });

  it("answers 404 for another site's sitemap under this site's path, and leaves it alone", async () => {
    const other = await createSite(key);
    const theirs = await addSitemap(key, other.id, `https://${other.domain}/sitemap.xml`);
    const wrongPath = `/v1/sites/${site.id}/sitemaps/${theirs.id}`;
    expect((await api("GET", wrongPath, { key })).status).toBe(404);
    expect((await api("DELETE", wrongPath, { key })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${other.id}/sitemaps/${theirs.id}`, { key })).status).toBe(200);
  });

  it("answers 404 for an unknown sitemap and for the sitemaps of an unknown site", async () => {
    expect((await api("GET", `/v1/sites/${site.id}/sitemaps/${MISSING_ID}`, { key })).status).toBe(404);
    expect((await api("DELETE", `/v1/sites/${site.id}/sitemaps/${MISSING_ID}`, { key })).status).toBe(404);
    expect((await sitemapsOf(MISSING_ID)).status).toBe(404);
  });
});

describe("POST /v1/sites/{siteId}/sitemaps/{sitemapId}/refresh", () => {
  it("queues a read now (202, the sitemap as it is), and is 404 for another account's sitemap", async () => {
    const own = await createSite(key);
    const sitemap = await addSitemap(key, own.id, `https://${own.domain}/sitemap.xml`);
    // Its first read may still be under way or done (the domain does not resolve): either way the answer is the sitemap.
    const response = await api("POST", `/v1/sites/${own.id}/sitemaps/${sitemap.id}/refresh`, { key });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ id: sitemap.id, site_id: own.id, status: expect.stringMatching(/^(waiting|processing|done|error)$/), last_changed_at: null });
    const other = await newKey();
    expect((await api("POST", `/v1/sites/${own.id}/sitemaps/${sitemap.id}/refresh`, { key: other })).status).toBe(404);
    expect((await api("POST", `/v1/sites/${own.id}/sitemaps/${MISSING_ID}/refresh`, { key })).status).toBe(404);
  });
});

describe("POST /v1/sites/{siteId}/sitemaps with discover", () => {
  it("answers 422 saying where it looked when the site announces no sitemap, and adds nothing", async () => {
    const own = await createSite(key);
    const response = await api("POST", `/v1/sites/${own.id}/sitemaps`, { key, body: { discover: true } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/No sitemap was found on .*Looked at: .*robots\.txt/);
    expect((await sitemapsOf(own.id)).body.total).toBe(0);
  });

  it.each([
    ["neither url nor discover", {}, "url"],
    ["both", { url: "https://x.test/sitemap.xml", discover: true }, "discover"],
    ["discover: false", { discover: false }, "discover"],
  ])("refuses %s with 422 naming the field", async (_label, body, field) => {
    const response = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body)).toContain(field);
  });
});

describe("PreheatBot", () => {
  it("reads ownership proofs, robots.txt and sitemaps as PreheatBot/<version> (+<base url>/bot), a page that says what it does", async () => {
    const own = await createValidatedSite(key);
    const sitemapXml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://${own.domain}/a</loc></url></urlset>`;
    await serveSite(own.domain, {
      routes: {
        [`/${own.validation_token}.html`]: { body: own.validation_token },
        "/robots.txt": { body: `User-agent: *\nSitemap: http://${own.domain}/sitemap.xml\n`, headers: { "content-type": "text/plain" } },
        "/sitemap.xml": { body: sitemapXml, headers: { "content-type": "application/xml" } },
      },
    });
    expect((await api("POST", `/v1/sites/${own.id}/validate`, { key })).status).toBe(200);
    expect((await api("POST", `/v1/sites/${own.id}/sitemaps`, { key, body: { discover: true } })).status).toBe(201);
    await expect.poll(async () => (await originUserAgents(own.domain)).map((r) => r.request), { timeout: 15_000 }).toEqual(expect.arrayContaining(["GET /robots.txt", "GET /sitemap.xml"]));
    const agents = new Set((await originUserAgents(own.domain)).map((r) => r.user_agent));
    expect([...agents]).toHaveLength(1);
    const [agent] = [...agents] as [string];
    expect(agent).toMatch(/^PreheatBot\/\d+\.\d+\.\d+ \(\+https?:\/\/[^ ]+\/bot\)$/);

    const page = await fetch(`${baseUrl}/bot`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(agent.replace(/&/g, "&amp;"));
    expect(html).toMatch(/allow/i);
    expect(html).toMatch(/block/i);
  });
});
