import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createValidatedSite, newKey } from "./support/api";

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

let document: Document;
let ajv: Ajv2020;
let key: string;
let ids: Record<string, number>;

/** Resources each operation acts on; a DELETE gets its own so that the others keep theirs. */
async function fixtures() {
  const site = await createValidatedSite(key);
  const sitemap = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `https://${site.domain}/sitemap.xml` } });
  const boost = await api("POST", "/v1/boosts", {
    key,
    body: {
      name: "Nightly",
      site_id: site.id,
      source_type: "sitemap",
      sitemap_ids: [sitemap.body.id],
      region: ["fr", "uk"],
      schedule: "0 3 * * *",
      variations: { user_agents: ["mobile"], languages: ["fr-FR"] },
    },
  });
  return { site, sitemapId: sitemap.body.id as number, boostId: boost.body.id as number };
}

beforeAll(async () => {
  key = await newKey();
  document = (await api("GET", "/v1/openapi.json")).body as Document;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "openapi.json", components: document.components });
  const main = await fixtures();
  const run = await api("POST", `/v1/boosts/${main.boostId}/run`, { key });
  ids = { siteId: main.site.id, sitemapId: main.sitemapId, boostId: main.boostId, runId: run.body.run_id };
});

function schemaFor(operation: Operation, status: number) {
  const schema = operation.responses[String(status)]?.content?.["application/json"]?.schema;
  return schema ? JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) : undefined;
}

function expectValid(schema: object | undefined, body: unknown) {
  if (!schema) return expect(body).toBeNull();
  const validate = ajv.compile(schema);
  const valid = validate(body);
  expect(valid, JSON.stringify(validate.errors)).toBe(true);
}

const requestBodies: Record<string, (ids: Record<string, number>, domain: string) => unknown> = {
  "post /v1/sites": () => ({ domain: `openapi-${Date.now()}.test` }),
  "post /v1/sites/{siteId}/sitemaps": (_ids, domain) => ({ url: `https://${domain}/feed-${Date.now()}.xml` }),
  "post /v1/boosts": (ids) => ({ name: "CSV", site_id: ids.siteId, source_type: "csv", source_url: "https://files.example.org/urls.csv", region: ["us"] }),
  "post /v1/sites/{siteId}/boosts": () => ({ name: "CSV", source_type: "csv", source_url: "https://files.example.org/urls.csv", region: ["eu"], call_limit: 100 }),
  "put /v1/boosts/{boostId}": () => ({ name: "Renamed", call_limit: null }),
  "patch /v1/boosts/{boostId}": () => ({ ignore_errors: true }),
  "patch /v1/sites/{siteId}/boosts/{boostId}": () => ({ exclude_ext: [".JPG"] }),
  "post /v1/sites/{siteId}/warm": (_ids, domain) => ({ urls: [`https://${domain}/`, `https://${domain}/a`], region: ["de"] }),
};

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with every operation documented, scoped and with its errors", () => {
    expect(document).toMatchObject({ openapi: "3.1.0" });
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        "post /v1/sites",
        "post /v1/sites/{siteId}/validate",
        "post /v1/sites/{siteId}/sitemaps",
        "post /v1/boosts",
        "put /v1/boosts/{boostId}",
        "post /v1/boosts/{boostId}/run",
        "post /v1/sites/{siteId}/warm",
        "get /v1/sites/{siteId}/warm-runs",
        "get /v1/runs",
        "get /v1/runs/{runId}",
        "get /v1/sites",
        "get /v1/sites/{siteId}",
        "delete /v1/sites/{siteId}",
        "get /v1/sites/{siteId}/sitemaps",
        "delete /v1/sites/{siteId}/sitemaps/{sitemapId}",
        "get /v1/sites/{siteId}/boosts",
        "post /v1/sites/{siteId}/boosts",
        "get /v1/sites/{siteId}/boosts/{boostId}",
        "patch /v1/sites/{siteId}/boosts/{boostId}",
        "delete /v1/sites/{siteId}/boosts/{boostId}",
        "post /v1/sites/{siteId}/boosts/{boostId}/run",
        "get /v1/me",
      ]),
    );
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        // A deploy hook (no security requirement) is opened by the token in its path: no 401.
        const keyed = (operation as { security?: unknown[] }).security?.length !== 0;
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(keyed ? ["401", "500"] : ["404", "500"]));
      }
    }
  });

  it("is served with a readable reference page", async () => {
    const response = await fetch(`${(await import("./support/api")).baseUrl}/docs/api`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("/v1/sites/{siteId}/warm");
    expect(html).toContain("Decisions on what the specification leaves open");
  });
});

/** A validated site with a sitemap and a boost that has no run: for writes that need an idle boost, and deletes. */
async function idleResources() {
  const site = await createValidatedSite(key);
  const sitemap = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `https://${site.domain}/sitemap.xml` } });
  const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Own", source_type: "sitemap", sitemap_ids: [sitemap.body.id], region: ["fr"] } });
  return { siteId: site.id, sitemapId: sitemap.body.id as number, boostId: boost.body.id as number };
}

describe("every operation's live answer validates against its documented schema", () => {
  const operations = [
    "get /v1/me",
    "get /v1/sites",
    "post /v1/sites",
    "get /v1/sites/{siteId}",
    "post /v1/sites/{siteId}/validate",
    "get /v1/sites/{siteId}/sitemaps",
    "post /v1/sites/{siteId}/sitemaps",
    "get /v1/sites/{siteId}/sitemaps/{sitemapId}",
    "post /v1/boosts",
    "get /v1/boosts/{boostId}",
    "get /v1/sites/{siteId}/boosts",
    "post /v1/sites/{siteId}/boosts",
    "get /v1/sites/{siteId}/boosts/{boostId}",
    "get /v1/runs",
    "get /v1/runs/{runId}",
    "post /v1/sites/{siteId}/warm",
    "get /v1/sites/{siteId}/warm-runs",
    // On resources of their own (idleResources): the writes that need an idle boost, and deletes.
    "put /v1/boosts/{boostId}",
    "patch /v1/boosts/{boostId}",
    "patch /v1/sites/{siteId}/boosts/{boostId}",
    "post /v1/boosts/{boostId}/run",
    "post /v1/sites/{siteId}/boosts/{boostId}/run",
    "delete /v1/sites/{siteId}/sitemaps/{sitemapId}",
    "delete /v1/sites/{siteId}/boosts/{boostId}",
    "delete /v1/boosts/{boostId}",
    "delete /v1/sites/{siteId}",
  ];

  it.each(operations)("%s", async (name) => {
    const [method, template] = name.split(" ") as [string, string];
    let values = ids;
    if (/^(put|patch|delete) |\/run$/.test(name)) values = { ...ids, ...(await idleResources()) };
    const path = template.replace(/\{(\w+)\}/g, (_m, id: string) => String(values[id]));
    const site = await api("GET", `/v1/sites/${values.siteId}`, { key });
    const body = requestBodies[name]?.(values, site.body.domain);
    const response = await api(method.toUpperCase(), path, { key, body });
    const operation = document.paths[template]![method]!;
    const documented = Object.keys(operation.responses)
      .map(Number)
      .filter((s) => s < 300);
    expect(documented, `${name}: ${JSON.stringify(response.body)}`).toContain(response.status);
    expectValid(schemaFor(operation, response.status), response.body);

    const unauthorised = await api(method.toUpperCase(), path, { body });
    expect(unauthorised.status).toBe(401);
    expectValid(schemaFor(operation, 401), unauthorised.body);
  });
});
