import { beforeAll, describe, expect, it } from "vitest";
import { api, createSite, newKey, serveSite } from "./support/api";

let key: string;
beforeAll(async () => {
  key = await newKey();
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const settled = (siteId: number, sitemapId: number) =>
  until(async () => {
    const response = await api("GET", `/v1/sites/${siteId}/sitemaps/${sitemapId}`, { key });
    return ["done", "error"].includes(response.body.status) ? response.body : undefined;
  });

describe("POST /v1/sites/{siteId}/sitemaps", () => {
  it("registers the sitemap as waiting, then shows why a download is being retried", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, {
      routes: {
        "/sitemap.xml": {
          body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://${site.domain}/</loc></url><url><loc>https://www.${site.domain}/shoes</loc><lastmod>2026-10-01</lastmod></url><url><loc>https://elsewhere.test/x</loc></url></urlset>`,
          headers: { "content-type": "application/xml" },
        },
      },
    });
    const created = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `https://${site.domain}/sitemap.xml` } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ site_id: site.id, url: `https://${site.domain}/sitemap.xml`, status: "waiting", status_message: null, last_processed_at: null, url_count: 0 });
    // HTTPS is refused by the local origin: a transient failure, retried later, whose reason shows meanwhile.
    const retrying = await until(async () => {
      const response = await api("GET", `/v1/sites/${site.id}/sitemaps/${created.body.id}`, { key });
      return response.body.status_message ? response.body : undefined;
    });
    expect(retrying.status).toBe("processing");
    expect(retrying.status_message).toMatch(/connection refused\. Retrying\.$/);
  });

  it("reads a sitemap served over http, counting only the URLs on the site's domain", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, {
      routes: {
        "/sitemap.xml": {
          body: `<urlset><url><loc>http://${site.domain}/</loc></url><url><loc>http://www.${site.domain}/a</loc></url><url><loc>http://elsewhere.test/x</loc></url></urlset>`,
          headers: { "content-type": "application/xml" },
        },
      },
    });
    const created = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `http://${site.domain}/sitemap.xml` } });
    const done = await settled(site.id, created.body.id);
    expect(done).toMatchObject({ status: "done", url_count: 2 });
    expect(done.status_message).toMatch(/^2 URLs from 1 document; 1 URL outside/);
  });

  it("shows a readable error for a document that is not a sitemap", async () => {
    const site = await createSite(key);
    await serveSite(site.domain, { routes: { "/sitemap.xml": { body: "<html><body>Not here</body></html>" } } });
    const created = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `http://${site.domain}/sitemap.xml` } });
    const done = await settled(site.id, created.body.id);
    expect(done.status).toBe("error");
    expect(done.status_message).toBe("The document is not a sitemap, sitemap index, RSS or Atom feed (its root element is <html>).");
  });

  it("accepts the www. variant of the domain, both ways", async () => {
    const bare = await createSite(key);
    expect((await api("POST", `/v1/sites/${bare.id}/sitemaps`, { key, body: { url: `https://www.${bare.domain}/s.xml` } })).status).toBe(201);
    const www = await createSite(key, `www.${bare.domain.replace(/^www\./, "")}`.replace("www.www.", "www."));
    expect((await api("POST", `/v1/sites/${www.id}/sitemaps`, { key, body: { url: `https://${www.domain.slice(4)}/s.xml` } })).status).toBe(201);
  });

  it.each([
    ["another domain", (d: string) => `https://other-${d}/sitemap.xml`],
    ["a subdomain", (d: string) => `https://shop.${d}/sitemap.xml`],
    ["another scheme", (d: string) => `ftp://${d}/sitemap.xml`],
    ["a relative URL", () => "/sitemap.xml"],
    ["credentials", (d: string) => `https://user:pw@${d}/sitemap.xml`],
  ])("refuses %s with 422", async (_label, url) => {
    const site = await createSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: url(site.domain) } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/^url: /);
    expect((await api("GET", `/v1/sites/${site.id}/sitemaps`, { key })).body.total).toBe(0);
  });

  it.each([[{}], [{ url: 42 }], [{ url: null }]])("refuses the body %j with 422", async (body) => {
    const site = await createSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body });
    expect(response.status).toBe(422);
  });

  it("answers 409 for a sitemap already registered for the site", async () => {
    const site = await createSite(key);
    const url = `https://${site.domain}/sitemap.xml`;
    expect((await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url } })).status).toBe(201);
    const again = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `${url}#top` } });
    expect(again.status).toBe(409);
  });

  it("answers 404 for an unknown site", async () => {
    expect((await api("POST", "/v1/sites/999999/sitemaps", { key, body: { url: "https://x.test/s.xml" } })).status).toBe(404);
  });
});

describe("listing, getting and deleting sitemaps", () => {
  it("lists newest first with paging, gets one, and deletes it", async () => {
    const site = await createSite(key);
    const ids: number[] = [];
    for (const name of ["a", "b", "c"]) ids.push((await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `https://${site.domain}/${name}.xml` } })).body.id);
    const page = await api("GET", `/v1/sites/${site.id}/sitemaps?limit=2`, { key });
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.body.data.map((s: { id: number }) => s.id)).toEqual([ids[2], ids[1]]);
    expect((await api("GET", `/v1/sites/${site.id}/sitemaps/${ids[0]}`, { key })).body.url).toBe(`https://${site.domain}/a.xml`);
    expect((await api("DELETE", `/v1/sites/${site.id}/sitemaps/${ids[0]}`, { key })).status).toBe(204);
    expect((await api("GET", `/v1/sites/${site.id}/sitemaps/${ids[0]}`, { key })).status).toBe(404);
    expect((await api("DELETE", `/v1/sites/${site.id}/sitemaps/${ids[0]}`, { key })).status).toBe(404);
  });

  it("answers 404 for another site's sitemap under this site's path", async () => {
    const one = await createSite(key);
    const two = await createSite(key);
    const sitemap = await api("POST", `/v1/sites/${two.id}/sitemaps`, { key, body: { url: `https://${two.domain}/s.xml` } });
    expect((await api("GET", `/v1/sites/${one.id}/sitemaps/${sitemap.body.id}`, { key })).status).toBe(404);
    expect((await api("DELETE", `/v1/sites/${one.id}/sitemaps/${sitemap.body.id}`, { key })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${two.id}/sitemaps/${sitemap.body.id}`, { key })).status).toBe(200);
  });
});
