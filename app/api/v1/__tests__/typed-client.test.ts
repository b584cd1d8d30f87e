import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import { beforeAll, describe, expect, it } from "vitest";
import type { paths } from "@/lib/openapi/client/schema";
import { baseUrl, newKey, serveSite, uniqueDomain } from "./support/api";

/**
 * A client generated from the published document (openapi-typescript types, `npm run
 * openapi:types`, with openapi-fetch) drives a whole flow. `npm test` type-checks this file: a
 * request the document describes wrongly fails there, without a single cast here.
 */

let client: ReturnType<typeof createClient<paths, "application/json">>;

beforeAll(async () => {
  client = createClient<paths, "application/json">({ baseUrl, headers: { authorization: `Bearer ${await newKey()}` } });
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("a client generated from the OpenAPI document", () => {
  it("registers and validates a site, adds a sitemap, runs a boost, warms URLs and reads the results", async () => {
    const domain = uniqueDomain("typed");
    const site = await client.POST("/v1/sites", { body: { domain } });
    if (!site.data) throw new Error(`site: ${JSON.stringify(site.error)}`);
    const siteId = site.data.id;
    const pages = ["/", "/shoes", "/hats"].map((path) => `http://${site.data.domain}${path}`);
    await serveSite(site.data.domain, {
      routes: {
        [`/${site.data.validation_token}.html`]: { body: site.data.validation_token },
        "/sitemap.xml": { body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map((url) => `<url><loc>${url}</loc></url>`).join("")}</urlset>` },
        "/shoes": { body: "shoes", headers: { "cache-control": "no-store" } },
      },
      fallback: { body: "page", headers: { "x-cache": "HIT" } },
    });

    const validation = await client.POST("/v1/sites/{siteId}/validate", { params: { path: { siteId } } });
    expect(validation.data?.validated).toBe(true);

    const added = await client.POST("/v1/sites/{siteId}/sitemaps", { params: { path: { siteId } }, body: { url: `http://${site.data.domain}/sitemap.xml` } });
    if (!added.data || !("id" in added.data)) throw new Error(`sitemap: ${JSON.stringify(added.error)}`);
    const sitemapId = added.data.id;
    const sitemap = await until(
      async () => (await client.GET("/v1/sites/{siteId}/sitemaps/{sitemapId}", { params: { path: { siteId, sitemapId } } })).data,
      (read) => read?.status === "done" || read?.status === "error",
      "sitemap",
    );
    expect(sitemap).toMatchObject({ status: "done", url_count: 3 });

    const boost = await client.POST("/v1/sites/{siteId}/boosts", { params: { path: { siteId } }, body: { name: "Typed", source_type: "sitemap", sitemap_ids: [sitemapId], region: ["fr"] } });
    if (!boost.data) throw new Error(`boost: ${JSON.stringify(boost.error)}`);
    const estimate = await client.GET("/v1/boosts/{boostId}/estimate", { params: { path: { boostId: boost.data.id } } });
    expect(estimate.data?.calls).toBe(3);

    const triggered = await client.POST("/v1/boosts/{boostId}/run", { params: { path: { boostId: boost.data.id }, header: { "Idempotency-Key": randomUUID() } } });
    if (!triggered.data) throw new Error(`run: ${JSON.stringify(triggered.error)}`);
    const runId = triggered.data.run_id;
    const run = await until(
      async () => (await client.GET("/v1/runs/{runId}", { params: { path: { runId } } })).data,
      (read) => read?.status === "done",
      "boost run",
    );
    expect(run?.summary.total_calls).toBe(3);

    const warm = await client.POST("/v1/sites/{siteId}/warm", { params: { path: { siteId } }, body: { urls: pages.slice(0, 2) } });
    if (!warm.data) throw new Error(`warm: ${JSON.stringify(warm.error)}`);
    const warmRunId = warm.data.run_id;
    await until(
      async () => (await client.GET("/v1/runs/{runId}", { params: { path: { runId: warmRunId } } })).data,
      (read) => read?.status === "done",
      "warm run",
    );
    const warmRuns = await client.GET("/v1/sites/{siteId}/warm-runs", { params: { path: { siteId }, query: { limit: 5 } } });
    expect(warmRuns.data?.data.map((listed) => listed.id)).toEqual([warmRunId]);

    const results = await client.GET("/v1/runs/{runId}/results", { params: { path: { runId }, query: { reason: "no_store", limit: 10 } } });
    expect(results.data?.data.map((row) => row.url)).toEqual([pages[1]]);

    const listed = await client.GET("/v1/runs", { params: { query: { boost_id: boost.data.id } } });
    expect(listed.data?.total).toBe(1);
  });

  it("reads an error's code as the document types it", async () => {
    const missing = await client.GET("/v1/runs/{runId}", { params: { path: { runId: 2_000_000_000 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe("not_found");
  });
});
