import { beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "@/lib/auth/scopes";
import { operations } from "@/lib/openapi/document";
import { api, cli, createValidatedSite, newKey, uniqueEmail } from "./support/api";

type Ids = Record<string, number>;

/** A validated site with a sitemap, a boost and a run: something for every path id. */
async function resources(key: string): Promise<Ids> {
  const site = await createValidatedSite(key);
  const sitemap = await api("POST", `/v1/sites/${site.id}/sitemaps`, { key, body: { url: `https://${site.domain}/sitemap.xml` } });
  const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "b", source_type: "sitemap", sitemap_ids: [sitemap.body.id], region: ["fr"] } });
  const run = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
  return { siteId: site.id, sitemapId: sitemap.body.id, boostId: boost.body.id, runId: run.body.run_id };
}

const pathOf = (template: string, ids: Ids) => template.replace(/\{(\w+)\}/g, (_m, name: string) => String(ids[name]));
const label = (op: (typeof operations)[number]) => `${op.method.toUpperCase()} ${op.path}`;
const INVALID = { error: "Invalid or expired API key." };

let owner: string;
let ids: Ids;
let ownerEmail: string;

beforeAll(async () => {
  ownerEmail = uniqueEmail("owner");
  owner = await newKey("all", ownerEmail);
  ids = await resources(owner);
});

describe("authentication, on every operation", () => {
  it.each(operations.map((op) => [label(op), op] as const))("%s: no key, a malformed key or an unknown key → 401", async (_name, op) => {
    const path = pathOf(op.path, ids);
    const attempts: Record<string, string>[] = [{}, { authorization: "Basic dXNlcjpwYXNz" }, { authorization: "Bearer" }, { authorization: "Bearer phk_not-a-real-key" }];
    for (const headers of attempts) {
      const response = await api(op.method.toUpperCase(), path, { headers, body: op.body ? {} : undefined });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body).toEqual(INVALID);
    }
  });

  it("a revoked key → 401, and the key no longer works anywhere", async () => {
    const email = uniqueEmail("revoked");
    const key = await newKey("all", email);
    expect((await api("GET", "/v1/me", { key })).status).toBe(200);
    const [listed] = JSON.parse(await cli("keys", "list", "--email", email, "--json")) as { id: number; prefix: string }[];
    expect(key.startsWith(listed!.prefix)).toBe(true);
    await cli("keys", "revoke", String(listed!.id));
    expect((await api("GET", "/v1/me", { key })).body).toEqual(INVALID);
    expect((await api("GET", "/v1/sites", { key })).status).toBe(401);
    const [after] = JSON.parse(await cli("keys", "list", "--email", email, "--json")) as { state: string }[];
    expect(after!.state).toBe("revoked");
  });

  it("an expired key → 401", async () => {
    const email = uniqueEmail("expiring");
    const expires = new Date(Date.now() + 2000).toISOString();
    const key = (await cli("keys", "create", "--email", email, "--scopes", "all", "--expires", expires)).trim();
    expect((await api("GET", "/v1/me", { key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const response = await api("GET", "/v1/me", { key });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(INVALID);
  });
});

describe("scopes, on every operation", () => {
  const scoped = operations.filter((op) => op.scope);
  it.each(scoped.map((op) => [label(op), op] as const))("%s: a key with every other scope → 403 naming the scope", async (_name, op) => {
    const others = SCOPES.filter((s) => s !== op.scope).join(",");
    const key = await newKey(others, ownerEmail); // same account: only the scope is missing
    const response = await api(op.method.toUpperCase(), pathOf(op.path, ids), { key, body: op.body ? {} : undefined });
    expect(response.status).toBe(403);
    expect(response.body.error).toContain(op.scope);
    expect(response.body.required_scope).toBe(op.scope);
  });

  it("GET /v1/me needs no scope and lists the key's own", async () => {
    const key = await newKey("runs:read", ownerEmail);
    const me = await api("GET", "/v1/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.scopes).toEqual(["runs:read"]);
  });
});

describe("ownership, on every operation with an id", () => {
  let stranger: string;
  beforeAll(async () => {
    stranger = await newKey("all");
  });
  const withIds = operations.filter((op) => op.path.includes("{"));
  it.each(withIds.map((op) => [label(op), op] as const))("%s: another account's resource → 404", async (_name, op) => {
    const body = op.body ? { name: "x", domain: "x.test", url: "https://x.test/", urls: ["https://x.test/"], source_type: "csv", source_url: "https://x.test/a.csv", region: ["fr"] } : undefined;
    const response = await api(op.method.toUpperCase(), pathOf(op.path, ids), { key: stranger, body });
    expect(response.status).toBe(404);
    expect(response.body.error).toBeTypeOf("string");
  });

  it("another account's site is not listed, and its resources are unchanged", async () => {
    const sites = await api("GET", "/v1/sites?limit=100", { key: stranger });
    expect(sites.body.data.map((s: { id: number }) => s.id)).not.toContain(ids.siteId);
    expect((await api("GET", `/v1/sites/${ids.siteId}`, { key: owner })).status).toBe(200);
    expect((await api("GET", `/v1/boosts/${ids.boostId}`, { key: owner })).status).toBe(200);
  });
});

describe("GET /v1/me", () => {
  it("shows the account, the key, the regions and the quota", async () => {
    const me = await api("GET", "/v1/me", { key: owner });
    expect(me.status).toBe(200);
    expect(me.body.account).toMatchObject({ id: expect.any(Number), name: ownerEmail });
    expect(me.body.scopes).toEqual([...SCOPES]);
    expect(me.body.api_key.prefix).toBe(owner.slice(0, me.body.api_key.prefix.length));
    expect(me.body.regions).toContainEqual({ code: "gb", name: "United Kingdom" });
    expect(me.body.regions.map((r: { code: string }) => r.code)).not.toContain("uk");
    expect(me.body.quota).toMatchObject({ period: "month", limit: 50_000, used: expect.any(Number), remaining: expect.any(Number) });
    expect(new Date(me.body.quota.period_end).getUTCDate()).toBe(1);
  });
});

describe("the CLI", () => {
  it("keys create prints only the key; a second key of the same e-mail shares the account", async () => {
    const email = uniqueEmail("cli");
    const first = await cli("keys", "create", "--email", email, "--scopes", "all");
    expect(first).toMatch(/^phk_[A-Za-z0-9_-]{43}\n$/);
    const second = (await cli("keys", "create", "--email", email.toUpperCase(), "--scopes", "sites:read", "--name", "reader")).trim();
    const site = await api("POST", "/v1/sites", { key: first.trim(), body: { domain: `cli-${Date.now()}.test` } });
    const seen = await api("GET", `/v1/sites/${site.body.id}`, { key: second });
    expect(seen.status).toBe(200);
    const table = await cli("keys", "list", "--email", email);
    expect(table).toContain("reader");
    expect(table).not.toContain(second);
    expect(table).toContain(second.slice(0, 12));
  });

  it("refuses unknown scopes and bad e-mail addresses", async () => {
    await expect(cli("keys", "create", "--email", uniqueEmail(), "--scopes", "sites:admin")).rejects.toMatchObject({ code: 2 });
    await expect(cli("keys", "create", "--email", "not-an-address", "--scopes", "all")).rejects.toMatchObject({ code: 1 });
  });
});

describe("paths", () => {
  it("answers the same under /api/v1 as under /v1", async () => {
    const a = await api("GET", `/v1/sites/${ids.siteId}`, { key: owner });
    const b = await api("GET", `/api/v1/sites/${ids.siteId}`, { key: owner });
    expect(b).toMatchObject({ status: 200, body: a.body });
  });

  it("answers unknown paths and methods with JSON", async () => {
    const unknown = await api("GET", "/v1/nothing-here", { key: owner });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBeTypeOf("string");
    const method = await api("DELETE", "/v1/runs", { key: owner });
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET");
    expect(method.body.error).toMatch(/use GET/);
  });
});
