import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { operations } from "@/lib/openapi/document";
import { addSitemap, api, cli, createValidatedSite, newKey, type RequestOptions, serveSite, uniqueDomain, uniqueEmail } from "./support/api";

/**
 * Security of every operation the API publishes (`operations` of the OpenAPI document): who may call
 * it, with which key and scope, and on whose resources.
 */

type Operation = (typeof operations)[number];

const INVALID_KEY = { error: "Invalid or expired API key.", code: "invalid_api_key" };
/** An id no resource has (ids are integers that fit PostgreSQL's integer). */
const MISSING_ID = 2_000_000_000;
const CSV_BOOST = { name: "From CSV", source_type: "csv", source_url: "https://files.example.org/urls.csv", region: ["fr"] };

/** The operations a key opens; a deploy hook's token opens its own (deploy hooks in webhooks.test.ts). */
const keyed = operations.filter((op) => op.auth !== "token");
const nameOf = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;
const cases = (ops: Operation[]) => ops.map((op) => [nameOf(op), op] as const);
const hasPathId = (op: Operation) => op.path.includes("{");
const allScopes = [...new Set(keyed.flatMap((op) => (op.scope ? [op.scope] : [])))].sort();

let ownerEmail: string;
let owner: string; // every scope
let stranger: string; // another account, every scope
let withoutScope: Record<string, string>; // the owner's account: every scope but the one named
let revoked: string;
let expired: string;
let statusBeforeRevocation: number;
let statusBeforeExpiry: number;
let ids: Record<string, number>; // the owner's site, sitemap, boost and run
let domain: string;

/** A valid body for each operation that takes one, so that only the credentials can be wrong. */
const bodies: Record<string, () => unknown> = {
  "POST /v1/sites": () => ({ domain: uniqueDomain("auth") }),
  "POST /v1/sites/{siteId}/sitemaps": () => ({ url: `https://${domain}/sitemap-${randomBytes(4).toString("hex")}.xml` }),
  "POST /v1/boosts": () => ({ ...CSV_BOOST, site_id: ids.siteId }),
  "PUT /v1/boosts/{boostId}": () => ({ name: "Renamed" }),
  "PATCH /v1/sites/{siteId}": () => ({ max_concurrency: 2 }),
  "PATCH /v1/boosts/{boostId}": () => ({ name: "Renamed" }),
  "POST /v1/sites/{siteId}/boosts": () => CSV_BOOST,
  "PATCH /v1/sites/{siteId}/boosts/{boostId}": () => ({ name: "Renamed" }),
  "POST /v1/sites/{siteId}/warm": () => ({ urls: [`https://${domain}/`] }),
  "POST /v1/webhooks": () => ({ url: "https://hooks.example.org/preheat", events: ["run.completed"] }),
  "PATCH /v1/webhooks/{webhookId}": () => ({ description: "Renamed" }),
  "POST /v1/boosts/{boostId}/hooks": () => ({ name: "Deploy" }),
  "POST /v1/sites/{siteId}/changes": () => ({ urls: [`https://${domain}/`] }),
  "POST /v1/sites/{siteId}/change-receivers": () => ({ kind: "sanity" }),
  "PATCH /v1/sites/{siteId}/change-receivers/{receiverId}": () => ({ url_templates: { "*": ["/{slug.current}"] } }),
  "POST /v1/sites/{siteId}/traffic-sources": () => ({ kind: "access_log" }),
};

/** Calls `op` with the owner's resources in its path (or `pathIds`), under `/v1` or another prefix. */
function call(op: Operation, credentials: RequestOptions, pathIds: Record<string, number> = ids, prefix = "") {
  const path = prefix + op.path.replace(/\{(\w+)\}/g, (_match, name: string) => String(pathIds[name]));
  let body: unknown;
  if (op.body) {
    const make = bodies[nameOf(op)];
    if (!make) throw new Error(`No request body for ${nameOf(op)}: add one to \`bodies\` in this file.`);
    body = make();
  }
  return api(op.method.toUpperCase(), path, { ...credentials, body });
}

/** What the owner can see of its account; a refused request must leave it as it was. */
async function ownerState() {
  const get = async (path: string) => (await api("GET", path, { key: owner })).body;
  const [sites, sitemaps, boosts, warmRuns, runs] = await Promise.all([
    get("/v1/sites?limit=100"),
    get(`/v1/sites/${ids.siteId}/sitemaps?limit=100`),
    get(`/v1/sites/${ids.siteId}/boosts?limit=100`),
    get(`/v1/sites/${ids.siteId}/warm-runs?limit=100`),
    get("/v1/runs?limit=100"),
  ]);
  return {
    sites: sites.data,
    sitemaps: sitemaps.data.map((s: { id: number; url: string }) => [s.id, s.url]),
    boosts: boosts.data,
    warmRuns: warmRuns.data.map((r: { id: number }) => r.id),
    runs: runs.data.map((r: { id: number; status: string }) => [r.id, r.status]),
  };
}

async function keyIdOf(email: string, key: string): Promise<number> {
  const rows = JSON.parse(await cli("keys", "list", "--email", email, "--json")) as { id: number; prefix: string }[];
  const row = rows.find((r) => key.startsWith(r.prefix));
  if (!row) throw new Error("the key is not listed");
  return row.id;
}

async function waitForSitemap(siteId: number, sitemapId: number) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { body } = await api("GET", `/v1/sites/${siteId}/sitemaps/${sitemapId}`, { key: owner });
    if (body.status === "done" || body.status === "error") return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the sitemap was not processed within 30 s");
}

let ownerBefore: Awaited<ReturnType<typeof ownerState>>;

beforeAll(async () => {
  ownerEmail = uniqueEmail("owner");
  // First the key that expires, so that the rest of the set-up uses up most of its life.
  const expiresAt = Date.now() + 12_000;
  expired = (await cli("keys", "create", "--email", ownerEmail, "--scopes", "all", "--expires", new Date(expiresAt).toISOString())).trim();
  statusBeforeExpiry = (await api("GET", "/v1/me", { key: expired })).status;

  owner = await newKey("all", ownerEmail);
  stranger = await newKey("all");
  withoutScope = {};
  for (const scope of allScopes) withoutScope[scope] = await newKey(allScopes.filter((s) => s !== scope).join(","), ownerEmail);
  revoked = await newKey("all", ownerEmail);
  statusBeforeRevocation = (await api("GET", "/v1/me", { key: revoked })).status;
  await cli("keys", "revoke", String(await keyIdOf(ownerEmail, revoked)));

  // The owner's resources: a validated site with a processed sitemap, a boost and a run of it.
  const site = await createValidatedSite(owner);
  domain = site.domain;
  await serveSite(domain, {
    routes: {
      [`/${site.validation_token}.html`]: { body: site.validation_token },
      "/sitemap.xml": {
        headers: { "content-type": "application/xml" },
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${domain}/</loc></url></urlset>`,
      },
    },
  });
  const sitemap = await addSitemap(owner, site.id, `http://${domain}/sitemap.xml`);
  const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key: owner, body: CSV_BOOST });
  const run = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key: owner });
  const webhook = await api("POST", "/v1/webhooks", { key: owner, body: { url: "https://hooks.example.org/preheat", events: ["run.failed"] } });
  const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key: owner, body: {} });
  const receiver = await api("POST", `/v1/sites/${site.id}/change-receivers`, { key: owner, body: { kind: "sanity" } });
  const trafficSource = await api("POST", `/v1/sites/${site.id}/traffic-sources`, { key: owner, body: { kind: "access_log" } });
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
  await waitForSitemap(site.id, sitemap.id); // its status stops changing: answers can be compared
  ownerBefore = await ownerState();

  await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt + 500 - Date.now())));
});

describe("requests without a valid key", () => {
  const credentials: [string, () => RequestOptions][] = [
    ["no Authorization header", () => ({})],
    ["a malformed key", () => ({ headers: { authorization: "Bearer not-a-preheat-key" } })],
    ["an unknown key", () => ({ key: `phk_${randomBytes(32).toString("base64url")}` })],
    ["a revoked key", () => ({ key: revoked })],
    ["an expired key", () => ({ key: expired })],
  ];

  describe.each(credentials)("with %s", (_name, credential) => {
    it.each(cases(keyed))("%s answers 401", async (_name, op) => {
      const response = await call(op, credential());
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_KEY);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    });
  });

  it.each([
    ["the key without a scheme", () => owner],
    ["the Basic scheme", () => `Basic ${Buffer.from(`${owner}:`).toString("base64")}`],
    ["another scheme", () => `Token ${owner}`],
    ["Bearer and nothing else", () => "Bearer"],
    ["the key with a character more", () => `Bearer ${owner}x`],
    ["the key with its last character missing", () => `Bearer ${owner.slice(0, -1)}`],
    ["the key followed by another word", () => `Bearer ${owner} extra`],
  ])("answers 401 to an Authorization header with %s", async (_name, header) => {
    const response = await api("GET", "/v1/sites", { headers: { authorization: header() } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID_KEY);
  });

  it("refused a revoked and an expired key that worked before", () => {
    expect(statusBeforeRevocation).toBe(200);
    expect(statusBeforeExpiry).toBe(200);
  });

  it("changed nothing in the account", async () => {
    expect(await ownerState()).toEqual(ownerBefore);
  });
});

describe("a key without the operation's scope", () => {
  const scoped = keyed.filter((op) => op.scope);

  it.each(cases(scoped))("%s answers 403 naming the scope it needs", async (_name, op) => {
    const response = await call(op, { key: withoutScope[op.scope!] });
    expect(response.status).toBe(403);
    expect(response.body.error).toEqual(expect.any(String));
    expect(response.body.error).toContain(op.scope);
    expect(response.body.required_scope).toBe(op.scope);
  });

  it.each(allScopes)("a key without %s still reaches GET /v1/me, which lists its scopes", async (scope) => {
    const response = await api("GET", "/v1/me", { key: withoutScope[scope] });
    expect(response.status).toBe(200);
    expect([...response.body.scopes].sort()).toEqual(allScopes.filter((s) => s !== scope));
  });

  it("changed nothing in the account", async () => {
    expect(await ownerState()).toEqual(ownerBefore);
  });
});

describe("another account's resources", () => {
  const withIds = keyed.filter(hasPathId);

  it.each(cases(withIds))("%s answers 404, exactly as for a resource that does not exist", async (_name, op) => {
    const response = await call(op, { key: stranger });
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual(expect.any(String));
    const missing = await call(
      op,
      { key: stranger },
      { siteId: MISSING_ID, sitemapId: MISSING_ID, boostId: MISSING_ID, runId: MISSING_ID, webhookId: MISSING_ID, hookId: MISSING_ID, receiverId: MISSING_ID, sourceId: MISSING_ID },
    );
    expect(missing.status).toBe(404);
    expect(response.body).toEqual(missing.body);
  });

  it("POST /v1/boosts answers 404 for another account's site", async () => {
    const response = await api("POST", "/v1/boosts", { key: stranger, body: { ...CSV_BOOST, site_id: ids.siteId } });
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual(expect.any(String));
  });

  it("a boost cannot use another account's sitemap (404)", async () => {
    const site = await api("POST", "/v1/sites", { key: stranger, body: { domain } });
    expect(site.status).toBe(201);
    const boost = { name: "Borrowed", source_type: "sitemap", region: ["fr"], sitemap_ids: [ids.sitemapId] };
    const response = await api("POST", "/v1/boosts", { key: stranger, body: { ...boost, site_id: site.body.id } });
    expect(response.status).toBe(404);
    expect((await api("GET", `/v1/sites/${site.body.id}/boosts`, { key: stranger })).body.total).toBe(0);
  });

  it("lists never show another account's sites or runs", async () => {
    const sites = await api("GET", "/v1/sites?limit=100", { key: stranger });
    expect(sites.body.data.map((s: { id: number }) => s.id)).not.toContain(ids.siteId);
    const runs = await api("GET", "/v1/runs?limit=100", { key: stranger });
    expect(runs.body.data.map((r: { id: number }) => r.id)).not.toContain(ids.runId);
  });

  it("changed nothing in the owner's account", async () => {
    expect(await ownerState()).toEqual(ownerBefore);
    for (const path of [`/v1/sites/${ids.siteId}`, `/v1/sites/${ids.siteId}/sitemaps/${ids.sitemapId}`, `/v1/boosts/${ids.boostId}`, `/v1/runs/${ids.runId}`]) {
      expect((await api("GET", path, { key: owner })).status, path).toBe(200);
    }
    expect((await api("GET", `/v1/sites/${ids.siteId}`, { key: owner })).body.validated).toBe(true);
  });
});

describe("GET /v1/me", () => {
  it("describes the key's scopes, the regions and the month's quota", async () => {
    const response = await api("GET", "/v1/me", { key: owner });
    expect(response.status).toBe(200);
    expect([...response.body.scopes].sort()).toEqual(allScopes);
    expect(owner.startsWith(response.body.api_key.prefix)).toBe(true);

    const regions = response.body.regions as { code: string; name: string }[];
    const codes = regions.map((r) => r.code);
    // Nothing runs as a regional worker or a proxy here: every region leaves through this server, and says it shares that egress with all the others.
    for (const region of regions) {
      expect(region).toEqual({ code: expect.stringMatching(/^[a-z]{2}$/), name: expect.any(String), egress: "local", shares_egress_with: codes.filter((code) => code !== region.code) });
    }
    expect(codes).toEqual(expect.arrayContaining(["fr", "de", "es", "gb", "us"]));
    expect(codes).not.toContain("uk");

    const now = new Date();
    const { quota } = response.body;
    expect(quota).toMatchObject({
      limit: inject("monthlyQuota"),
      used: expect.any(Number),
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });
    expect(quota.limit).toBe(50_000);
    expect(quota.remaining).toBe(quota.limit - quota.used);
  });

  it("works with a key of a single scope", async () => {
    const key = await newKey("runs:read");
    const response = await api("GET", "/v1/me", { key });
    expect(response.status).toBe(200);
    expect(response.body.scopes).toEqual(["runs:read"]);
    expect(response.body.quota).toMatchObject({ limit: 50_000, used: 0, remaining: 50_000 });
  });
});

describe("the /api/v1 prefix", () => {
  it.each(cases(keyed))("%s refuses a missing key the same way", async (_name, op) => {
    const response = await call(op, {}, ids, "/api");
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID_KEY);
  });

  it.each(cases(keyed.filter((op) => op.method === "get")))("%s answers the same as under /v1", async (_name, op) => {
    const short = await call(op, { key: owner });
    const long = await call(op, { key: owner }, ids, "/api");
    expect(short.status).toBe(200);
    expect(long.status).toBe(short.status);
    expect(long.body).toEqual(short.body);
  });

  it("refuses a missing scope the same way", async () => {
    const short = await api("GET", "/v1/runs", { key: withoutScope["runs:read"] });
    const long = await api("GET", "/api/v1/runs", { key: withoutScope["runs:read"] });
    expect(long.status).toBe(403);
    expect(long.body).toEqual(short.body);
  });

  it("answers an unknown path with the same JSON 404", async () => {
    const short = await api("GET", "/v1/no-such-thing", { key: owner });
    const long = await api("GET", "/api/v1/no-such-thing", { key: owner });
    expect(short.status).toBe(404);
    expect(long.status).toBe(404);
    expect(long.body).toEqual(short.body);
  });
});

describe("the keys CLI", () => {
  it("keys create prints the key alone, on one line", async () => {
    const output = await cli("keys", "create", "--email", uniqueEmail(), "--scopes", "sites:read");
    expect(output).toMatch(/^phk_\S+\n$/);
    const response = await api("GET", "/v1/me", { key: output.trim() });
    expect(response.status).toBe(200);
    expect(response.body.scopes).toEqual(["sites:read"]);
  });

  it("keys list shows each key by its prefix and state, never the full key", async () => {
    const table = await cli("keys", "list", "--email", ownerEmail);
    const json = await cli("keys", "list", "--email", ownerEmail, "--json");
    const rows = JSON.parse(json) as { id: number; prefix: string; state: string }[];
    const keys = [owner, revoked, expired, ...Object.values(withoutScope)];
    expect(rows).toHaveLength(keys.length);
    for (const key of keys) {
      const row = rows.find((r) => key.startsWith(r.prefix));
      expect(row, "every key is listed").toBeDefined();
      expect(row!.prefix.length).toBeLessThan(key.length);
      expect(row!.prefix.startsWith("phk_")).toBe(true);
      expect(table).toContain(row!.prefix);
      expect(table).not.toContain(key);
      expect(json).not.toContain(key);
      const state = key === revoked ? "revoked" : key === expired ? "expired" : "active";
      expect(row!.state, state).toBe(state);
    }
  });

  it("keys create for a known e-mail adds a key to the same account: both keys see the same sites", async () => {
    const email = uniqueEmail("team");
    const first = await newKey("all", email);
    const site = await api("POST", "/v1/sites", { key: first, body: { domain: uniqueDomain() } });
    expect(site.status).toBe(201);
    const second = await newKey("sites:read", email);
    expect(second).not.toBe(first);

    const seen = await api("GET", "/v1/sites", { key: second });
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((s: { id: number }) => s.id)).toEqual([site.body.id]);
    expect((await api("GET", `/v1/sites/${site.body.id}`, { key: second })).status).toBe(200);
    const [me1, me2] = await Promise.all([api("GET", "/v1/me", { key: first }), api("GET", "/v1/me", { key: second })]);
    expect(me2.body.account.id).toBe(me1.body.account.id);

    const other = await newKey("all", uniqueEmail("team"));
    expect((await api("GET", "/v1/sites", { key: other })).body.total).toBe(0);
  });
});
