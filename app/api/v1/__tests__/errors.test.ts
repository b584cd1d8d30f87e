import { randomBytes } from "node:crypto";
import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "@/lib/openapi/document";
import { addSitemap, api, type ApiResponse, baseUrl, createValidatedSite, newKey, uniqueDomain } from "./support/api";

/**
 * Bad requests: whatever is wrong, the answer is a 4xx JSON error with a sentence a user can act
 * on, never a 500, and nothing is written.
 */

type Operation = (typeof operations)[number];

const MAX_BODY_BYTES = 2 * 1024 * 1024;
const CSV_URL = "https://files.example.org/urls.csv";

let key: string;
let site: { id: number; domain: string };
let ids: Record<string, number>;
let baseline: Awaited<ReturnType<typeof accountState>>;

const nameOf = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;
const fill = (path: string, values: Record<string, string | number> = ids) => path.replace(/\{(\w+)\}/g, (_match, name: string) => String(values[name]));
const uniqueName = () => randomBytes(4).toString("hex");

/** A valid body for every operation that takes one: the tests below spoil one thing at a time. */
const validBodies: Record<string, () => Record<string, unknown>> = {
  "POST /v1/sites": () => ({ domain: uniqueDomain("errors") }),
  "POST /v1/sites/{siteId}/sitemaps": () => ({ url: `https://${site.domain}/sitemap-${uniqueName()}.xml` }),
  "POST /v1/boosts": () => ({ name: "Nightly", site_id: ids.siteId, source_type: "csv", source_url: CSV_URL, region: ["fr"] }),
  "PUT /v1/boosts/{boostId}": () => ({ name: `Renamed ${uniqueName()}` }),
  "PATCH /v1/sites/{siteId}": () => ({ max_concurrency: 2 }),
  "PATCH /v1/boosts/{boostId}": () => ({ name: `Renamed ${uniqueName()}` }),
  "POST /v1/sites/{siteId}/boosts": () => ({ name: "Weekly", source_type: "csv", source_url: CSV_URL, region: ["us"] }),
  "PATCH /v1/sites/{siteId}/boosts/{boostId}": () => ({ ignore_errors: true }),
  "POST /v1/sites/{siteId}/warm": () => ({ urls: [`https://${site.domain}/`] }),
  "POST /v1/webhooks": () => ({ url: "https://hooks.example.org/preheat", events: ["run.completed"] }),
  "PATCH /v1/webhooks/{webhookId}": () => ({ description: `Renamed ${uniqueName()}` }),
  "POST /v1/boosts/{boostId}/hooks": () => ({ name: "Deploy" }),
  "POST /v1/sites/{siteId}/changes": () => ({ urls: [`https://${site.domain}/`] }),
  "POST /v1/sites/{siteId}/change-receivers": () => ({ kind: "sanity" }),
  "PATCH /v1/sites/{siteId}/change-receivers/{receiverId}": () => ({ url_templates: { "*": ["/{slug.current}"] } }),
  "POST /v1/sites/{siteId}/traffic-sources": () => ({ kind: "access_log" }),
};

function validBody(op: Operation) {
  if (!op.body) return undefined;
  const make = validBodies[nameOf(op)];
  if (!make) throw new Error(`No valid body for ${nameOf(op)}: add one to \`validBodies\` in this file.`);
  return make();
}

/** The write endpoints whose bodies are checked below. */
const writes = ["POST /v1/sites", "POST /v1/sites/{siteId}/sitemaps", "POST /v1/boosts", "PUT /v1/boosts/{boostId}", "POST /v1/sites/{siteId}/warm"];

function send(endpoint: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) {
  const [method, path] = endpoint.split(" ") as [string, string];
  return api(method, fill(path), { key, ...options });
}

/** Everything a bad request could have written: the account's lists and its quota. */
async function accountState() {
  const get = async (path: string) => (await api("GET", path, { key })).body;
  const [sites, sitemaps, boosts, warmRuns, runs, me] = await Promise.all([
    get("/v1/sites?limit=100"),
    get(`/v1/sites/${ids.siteId}/sitemaps?limit=100`),
    get(`/v1/sites/${ids.siteId}/boosts?limit=100`),
    get(`/v1/sites/${ids.siteId}/warm-runs?limit=100`),
    get("/v1/runs?limit=100"),
    get("/v1/me"),
  ]);
  return {
    sites: sites.data,
    sitemaps: sitemaps.data.map((s: { id: number; url: string }) => [s.id, s.url]),
    boosts: boosts.data,
    warmRuns: warmRuns.data.map((r: { id: number }) => r.id),
    runs: runs.data.map((r: { id: number }) => r.id),
    quotaUsed: me.quota.used,
  };
}

/** A JSON error with a non-empty sentence, with one of the given statuses. */
function expectJsonError(response: ApiResponse, ...statuses: number[]) {
  expect(statuses, JSON.stringify(response.body)).toContain(response.status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
  expect(response.body.error.trim()).not.toBe("");
}

/**
 * Sends the body in chunks (Transfer-Encoding: chunked, no Content-Length) on a connection of its
 * own, as a client streaming an upload does.
 */
function streamed(method: string, path: string, chunks: string[]): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method, agent: false, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", connection: "close" } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        const headers = new Headers(Object.entries(response.headers).map(([name, value]): [string, string] => [name, String(value)]));
        resolve({ status: response.statusCode!, body: JSON.parse(text), headers });
      });
    });
    // The server may stop reading once the limit is passed: only a failure before any answer counts.
    request.on("error", (error) => setTimeout(() => reject(error), 1_000));
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

async function expectNothingWritten() {
  expect(await accountState()).toEqual(baseline);
}

beforeAll(async () => {
  key = await newKey();
  site = await createValidatedSite(key);
  const sitemap = await addSitemap(key, site.id, `https://${site.domain}/sitemap.xml`);
  const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Existing", source_type: "sitemap", sitemap_ids: [sitemap.id], region: ["fr"] } });
  // A run on a site of its own, so that this site and its boost stay free for warms and updates.
  const other = await createValidatedSite(key);
  const run = await api("POST", `/v1/sites/${other.id}/warm`, { key, body: { urls: [`https://${other.domain}/`] } });
  const webhook = await api("POST", "/v1/webhooks", { key, body: { url: "https://hooks.example.org/preheat", events: ["run.failed"] } });
  const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key, body: {} });
  const receiver = await api("POST", `/v1/sites/${site.id}/change-receivers`, { key, body: { kind: "sanity" } });
  const trafficSource = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key, body: { kind: "access_log" } });
  ids = {
    siteId: site.id,
    sitemapId: sitemap.id,
    boostId: boost.body.id,
    runId: run.body.run_id,
    webhookId: webhook.body.id,
    hookId: hook.body.id,
    receiverId: receiver.body.id,
    sourceId: trafficSource.body.id,
  };
  baseline = await accountState();
});

describe.each(writes)("%s", (endpoint) => {
  const valid = () => validBodies[endpoint]!();

  it.each([
    ["a truncated object", '{"name": '],
    ["single quotes", "{'name': 'Nightly'}"],
    ["a trailing comma", '{"name": "Nightly",}'],
    ["plain text", "warm my shop please"],
    ["two objects", "{} {}"],
  ])("answers 400 to malformed JSON (%s)", async (_label, rawBody) => {
    const response = await send(endpoint, { rawBody });
    expectJsonError(response, 400);
    expect(response.body.error).toMatch(/JSON/);
    await expectNothingWritten();
  });

  it.each([
    ["an empty array", () => "[]"],
    ["an array holding a valid body", () => JSON.stringify([valid()])],
    ["a string", () => JSON.stringify("hello")],
    ["a number", () => "42"],
    ["null", () => "null"],
    ["true", () => "true"],
  ])("answers 422 to a body that is not a JSON object (%s)", async (_label, rawBody) => {
    const response = await send(endpoint, { rawBody: rawBody() });
    expectJsonError(response, 422);
    await expectNothingWritten();
  });

  it("answers 413 to a body over 2 MiB, even a valid one", async () => {
    const rawBody = JSON.stringify({ ...valid(), padding: "x".repeat(MAX_BODY_BYTES) });
    const response = await send(endpoint, { rawBody });
    expectJsonError(response, 413);
    await expectNothingWritten();
  });

  it("answers 413 to a streamed body over 2 MiB sent without a Content-Length", async () => {
    const [method, path] = endpoint.split(" ") as [string, string];
    const chunks = [...Array.from({ length: 5 }, () => " ".repeat(512 * 1024)), JSON.stringify(valid())];
    const response = await streamed(method, fill(path), chunks);
    expectJsonError(response, 413);
    await expectNothingWritten();
  });
});

describe("fields of the wrong type or with unknown values", () => {
  // [endpoint, what is wrong, the spoilt fields, the field the error must name, a word it must contain]
  const cases: [string, string, Record<string, unknown>, string, string?][] = [
    ["POST /v1/sites", "no domain", { domain: undefined }, "domain"],
    ["POST /v1/sites", "domain as a number", { domain: 42 }, "domain"],
    ["POST /v1/sites", "domain as an array", { domain: ["shop.test"] }, "domain"],
    ["POST /v1/sites", "domain null", { domain: null }, "domain"],

    ["POST /v1/sites/{siteId}/sitemaps", "no url", { url: undefined }, "url"],
    ["POST /v1/sites/{siteId}/sitemaps", "url as a number", { url: 42 }, "url"],
    ["POST /v1/sites/{siteId}/sitemaps", "url as an object", { url: { href: "https://example.com/sitemap.xml" } }, "url"],

    ["POST /v1/boosts", "no name", { name: undefined }, "name"],
    ["POST /v1/boosts", "name as a number", { name: 42 }, "name"],
    ["POST /v1/boosts", "site_id as a string", { site_id: "1" }, "site_id"],
    ["POST /v1/boosts", "site_id as a fraction", { site_id: 1.5 }, "site_id"],
    ["POST /v1/boosts", "region as a string", { region: "fr" }, "region"],
    ["POST /v1/boosts", "sitemap_ids holding a string", { source_type: "sitemap", source_url: undefined, sitemap_ids: ["1"] }, "sitemap_ids[0]"],
    ["POST /v1/boosts", "call_limit as a string", { call_limit: "100" }, "call_limit"],
    ["POST /v1/boosts", "ignore_errors as a string", { ignore_errors: "yes" }, "ignore_errors"],
    ["POST /v1/boosts", "verify as a string", { verify: "yes" }, "verify"],
    ["POST /v1/boosts", "report_email_enabled as a number", { report_email_enabled: 1 }, "report_email_enabled"],
    ["POST /v1/boosts", "exclude_ext as a string", { exclude_ext: "jpg" }, "exclude_ext"],
    ["POST /v1/boosts", "variations as a string", { variations: "mobile" }, "variations"],
    ["POST /v1/boosts", "schedule as a number", { schedule: 3 }, "schedule"],
    ["POST /v1/boosts", "an unknown source_type", { source_type: "rss" }, "source_type", "csv"],
    ["POST /v1/boosts", "an unknown region", { region: ["fr", "mars"] }, "region[1]", "gb"],
    ["POST /v1/boosts", "an unknown user agent", { variations: { user_agents: ["tablet"] } }, "variations.user_agents[0]", "mobile"],
    ["POST /v1/boosts", "an unknown content type", { content_types: ["movie"] }, "content_types[0]", "html"],

    ["PUT /v1/boosts/{boostId}", "name as a number", { name: 42 }, "name"],
    ["PUT /v1/boosts/{boostId}", "region as a string", { region: "fr" }, "region"],
    ["PUT /v1/boosts/{boostId}", "call_limit as a fraction", { call_limit: 1.5 }, "call_limit"],
    ["PUT /v1/boosts/{boostId}", "ignore_errors as a string", { ignore_errors: "true" }, "ignore_errors"],
    ["PUT /v1/boosts/{boostId}", "url_root as a number", { url_root: 5 }, "url_root"],
    ["PUT /v1/boosts/{boostId}", "schedule as a boolean", { schedule: true }, "schedule"],
    ["PUT /v1/boosts/{boostId}", "an unknown region", { region: ["xx"] }, "region[0]", "fr"],
    ["PUT /v1/boosts/{boostId}", "an unknown user agent", { variations: { user_agents: ["desktop", "phone"] } }, "variations.user_agents[1]", "desktop"],
    ["PUT /v1/boosts/{boostId}", "an unknown content type", { content_types: ["doc"] }, "content_types[0]", "pdf"],

    ["POST /v1/sites/{siteId}/warm", "no urls", { urls: undefined }, "urls"],
    ["POST /v1/sites/{siteId}/warm", "urls as a string", { urls: "https://example.com/" }, "urls"],
    ["POST /v1/sites/{siteId}/warm", "a URL as a number", { urls: [42] }, "urls[0]"],
    ["POST /v1/sites/{siteId}/warm", "region as a string", { region: "fr" }, "region"],
    ["POST /v1/sites/{siteId}/warm", "an empty region list", { region: [] }, "region"],
    ["POST /v1/sites/{siteId}/warm", "user_agents as a string", { variations: { user_agents: "mobile" } }, "variations.user_agents"],
    ["POST /v1/sites/{siteId}/warm", "an unknown region", { region: ["zz"] }, "region[0]", "de"],
    ["POST /v1/sites/{siteId}/warm", "an unknown user agent", { variations: { user_agents: ["tablet"] } }, "variations.user_agents[0]", "ai_crawler"],
  ];

  it.each(cases)("%s: %s → 422 naming the field", async (endpoint, _label, spoilt, field, word) => {
    const body = { ...validBodies[endpoint]!(), ...spoilt };
    const response = await send(endpoint, { body });
    expectJsonError(response, 422);
    expect(response.body.error).toContain(`${field}:`);
    if (word) expect(response.body.error).toContain(word);
    await expectNothingWritten();
  });
});

describe("ids in paths that are not positive integers", () => {
  // [what the id is, the id, the statuses that may answer it]
  const badIds: [string, (real: number) => string, number[]][] = [
    ["abc", () => "abc", [422]],
    ["1.5", () => "1.5", [422]],
    ["-1", () => "-1", [422]],
    ["0", () => "0", [422]],
    ["99999999999", () => "99999999999", [404, 422]], // an integer, beyond any id
    ["the real id with .0", (real) => `${real}.0`, [422]],
    ["the real id with letters after it", (real) => `${real}abc`, [422]],
  ];
  // A deploy hook's token is no id: any string is one, and an unknown one answers 404.
  const cases = operations
    .filter((op) => op.path.includes("{") && op.auth !== "token")
    .flatMap((op) => [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => [nameOf(op), match[1]!, op] as const))
    .flatMap(([name, param, op]) => badIds.map(([label, value, statuses]) => [name, param, label, op, value, statuses] as const));

  it.each(cases)("%s with %s = %s answers a 4xx JSON error", async (_name, param, _label, op, value, statuses) => {
    const path = fill(op.path, { ...ids, [param]: value(ids[param]!) });
    const response = await api(op.method.toUpperCase(), path, { key, body: validBody(op) });
    expectJsonError(response, ...statuses);
    await expectNothingWritten();
  });
});

describe("paths and methods the API does not have", () => {
  it.each([
    ["GET", "/v1/no-such-thing"],
    ["POST", "/v1/sites/1/no-such-thing"],
    ["GET", "/v1/sites/1/sitemaps/2/urls"],
    ["DELETE", "/v1/runs/1/cancel"],
    ["PUT", "/v1/site"],
    ["GET", "/v1/v2/sites"],
    ["GET", "/v1"],
    ["GET", "/api/v1/no-such-thing"],
  ])("%s %s answers a JSON 404, with or without a key", async (method, path) => {
    for (const credentials of [{ key }, {}]) {
      const response = await api(method, path, credentials);
      expectJsonError(response, 404);
    }
    await expectNothingWritten();
  });

  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const served = new Map<string, string[]>();
  for (const op of operations) served.set(op.path, [...(served.get(op.path) ?? []), op.method.toUpperCase()]);
  const unserved = [...served].flatMap(([path, used]) => methods.filter((m) => !used.includes(m)).map((method) => [method, path] as const));

  it.each(unserved)("%s %s answers a JSON 405", async (method, path) => {
    const response = await api(method, fill(path), { key, body: method === "GET" || method === "DELETE" ? undefined : {} });
    expectJsonError(response, 405);
    await expectNothingWritten();
  });
});

describe("the valid bodies used above", () => {
  // Proves that each refusal above was caused by the one thing spoilt, not by the rest of the request.
  it.each(writes)("are accepted by %s", async (endpoint) => {
    const response = await send(endpoint, { body: validBodies[endpoint]!() });
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
  });
});
