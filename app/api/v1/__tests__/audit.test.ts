import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "@/lib/api/operations";
import { api, baseUrl, createValidatedSite, newKey, uniqueEmail } from "./support/api";
import { sessionOf, signUpAndConfirm, uniqueClient } from "./support/sessions";

// The audit log (GET /v1/audit-log, scope audit:read): every change, by whom, on what, from where; never a secret.

const dashboard = { "x-preheat-dashboard": "1" };
const PASSWORD = "correct horse battery staple";
const PROFILE_PASSWORD = "s3cret-staging-password";

type AuditEvent = {
  id: number;
  action: string;
  actor: { type: string; label: string; user_id?: number };
  target: { type: string; id: string | null; name: string | null; deleted: boolean | null };
  changes: string[];
  client_address: string | null;
  count: number;
  created_at: string;
};

let key: string;
let prefix: string;

async function log(query = "", as = key): Promise<{ data: AuditEvent[]; total: number; limit: number; offset: number }> {
  const response = await api("GET", `/v1/audit-log${query}`, { key: as });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

beforeAll(async () => {
  key = await newKey();
  prefix = (await api("GET", "/v1/me", { key })).body.api_key.prefix;
});

describe("what is recorded", () => {
  it("every /v1 operation that changes state declares its audit entry, and no read does", () => {
    for (const op of operations) {
      if (op.method === "get") expect(op.audit, op.operationId).toBeUndefined();
      else expect(op.audit?.action, op.operationId).toMatch(/^[a-z_]+\.[a-z_]+$/);
    }
  });

  it("lists a key's changes to a site, a boost and a webhook, newest first, with the key's prefix, the fields an update supplied and never a secret", async () => {
    const site = await createValidatedSite(key);
    expect((await api("PATCH", `/v1/sites/${site.id}`, { key, body: { max_concurrency: 3 } })).status).toBe(200);
    const profile = { headers: { "x-stage": "1" }, basic_auth: { username: "stage", password: PROFILE_PASSWORD } };
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Nightly", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"], request_profile: profile },
    });
    expect(boost.status, JSON.stringify(boost.body)).toBe(201);
    const updated = await api("PATCH", `/v1/boosts/${boost.body.id}`, { key, body: { name: "Nightly 2", request_profile: profile } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const webhook = await api("POST", "/v1/webhooks", { key, body: { url: "https://hooks.example.org/audit", events: ["run.failed"] } });
    expect(webhook.status).toBe(201);
    expect(webhook.body.secret).toMatch(/^whsec_/);
    expect((await api("PATCH", `/v1/webhooks/${webhook.body.id}`, { key, body: { description: "CI" } })).status).toBe(200);
    expect((await api("DELETE", `/v1/webhooks/${webhook.body.id}`, { key })).status).toBe(204);
    expect((await api("DELETE", `/v1/boosts/${boost.body.id}`, { key })).status).toBe(204);
    expect((await api("DELETE", `/v1/sites/${site.id}`, { key })).status).toBe(204);

    const { data, total } = await log(`?actor=${prefix}`);
    const steps = data.map((e) => [e.action, e.target.type, e.target.id]);
    expect(steps).toEqual([
      ["site.deleted", "site", String(site.id)],
      ["boost.deleted", "boost", String(boost.body.id)],
      ["webhook.deleted", "webhook", String(webhook.body.id)],
      ["webhook.updated", "webhook", String(webhook.body.id)],
      ["webhook.created", "webhook", String(webhook.body.id)],
      ["boost.updated", "boost", String(boost.body.id)],
      ["boost.created", "boost", String(boost.body.id)],
      ["site.updated", "site", String(site.id)],
      ["site.validated", "site", String(site.id)],
      ["site.created", "site", String(site.id)],
    ]);
    expect(total).toBe(10);
    for (const event of data) {
      expect(event.actor).toEqual({ type: "key", label: prefix });
      expect(event.client_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
      expect(new Date(event.created_at).toISOString()).toBe(event.created_at);
    }
    expect(data.find((e) => e.action === "site.updated")?.changes).toEqual(["max_concurrency"]);
    expect(data.find((e) => e.action === "boost.updated")?.changes).toEqual(["name", "request_profile"]);
    expect(data.find((e) => e.action === "webhook.updated")?.changes).toEqual(["description"]);
    expect(data.find((e) => e.action === "boost.created")?.changes).toEqual([]);
    const text = JSON.stringify(data);
    for (const secret of [PROFILE_PASSWORD, webhook.body.secret, key, site.verification_secret]) expect(text).not.toContain(secret);
  });

  it("names each entry's target as it is now, with its id, and says when it no longer exists", async () => {
    const own = await newKey();
    const site = await createValidatedSite(own);
    const boost = async (name: string) =>
      (await api("POST", `/v1/sites/${site.id}/boosts`, { key: own, body: { name, source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } })).body.id as number;
    const [kept, gone] = [await boost("Nightly"), await boost("Weekly")];
    expect((await api("PATCH", `/v1/boosts/${kept}`, { key: own, body: { name: "Nightly catalogue" } })).status).toBe(200);
    expect((await api("DELETE", `/v1/boosts/${gone}`, { key: own })).status).toBe(204);
    const { data } = await log("", own);
    const targets = new Map(data.map((e) => [`${e.action} ${e.target.id}`, e.target]));
    expect(targets.get(`site.created ${site.id}`)).toEqual({ type: "site", id: String(site.id), name: site.domain, deleted: false });
    // Renamed since it was created: every entry reads its name now.
    expect(targets.get(`boost.created ${kept}`)).toEqual({ type: "boost", id: String(kept), name: "Nightly catalogue", deleted: false });
    expect(targets.get(`boost.created ${gone}`)).toEqual({ type: "boost", id: String(gone), name: null, deleted: true });
    expect(targets.get(`boost.deleted ${gone}`)).toEqual({ type: "boost", id: String(gone), name: null, deleted: true });
  });

  it("records a create once: an idempotent replay and a refusal are not recorded", async () => {
    const own = await newKey();
    const headers = { "idempotency-key": `audit-${Date.now()}` };
    const first = await api("POST", "/v1/sites", { key: own, body: { domain: `once-${Date.now()}.test` }, headers });
    expect(first.status).toBe(201);
    const replay = await api("POST", "/v1/sites", { key: own, body: { domain: first.body.domain }, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await api("POST", "/v1/sites", { key: own, body: { domain: first.body.domain } })).status).toBe(409);
    expect((await api("PATCH", `/v1/sites/${first.body.id}`, { key: own, body: { max_concurrency: 0 } })).status).toBe(422);
    const { data } = await log("?action=site.", own);
    expect(data.map((e) => e.action)).toEqual(["site.created"]);
  });

  it("names a deploy hook as the actor of its trigger", async () => {
    const own = await newKey();
    const site = await createValidatedSite(own);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key: own, body: { name: "Deploy", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key: own, body: { name: "CI" } });
    expect(hook.status).toBe(201);
    const triggered = await api("POST", new URL(hook.body.url).pathname, {});
    expect(triggered.status, JSON.stringify(triggered.body)).toBe(202);
    const { data } = await log("?target_type=hook", own);
    expect(data.map((e) => [e.action, e.actor.type, e.actor.label, e.target.id])).toEqual([
      ["hook.triggered", "hook", String(hook.body.id), String(hook.body.id)],
      ["hook.created", "key", (await api("GET", "/v1/me", { key: own })).body.api_key.prefix, String(hook.body.id)],
    ]);
    expect(JSON.stringify(data)).not.toContain(new URL(hook.body.url).pathname.split("/").at(-1));
  });

  it("counts a deploy hook's repeated calls on one entry an hour, so that its URL cannot grow the log", async () => {
    const own = await newKey();
    const site = await createValidatedSite(own);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key: own, body: { name: "Deploys", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key: own, body: { name: "CI" } });
    for (let i = 0; i < 5; i++) expect((await api("POST", new URL(hook.body.url).pathname, {})).status).toBe(202);
    const { data } = await log("?action=hook.triggered", own);
    expect(data.map((e) => [e.target.id, e.count])).toEqual([[String(hook.body.id), 5]]);
    // Every other entry counts once.
    expect((await log("?action=hook.created", own)).data.map((e) => e.count)).toEqual([1]);
  });
});

describe("the MCP server's tools", () => {
  it("record as their operations do, under the key's prefix", async () => {
    const own = await newKey();
    const site = await createValidatedSite(own);
    const client = new Client({ name: "audit-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${own}` } } }));
    try {
      const result = (await client.callTool({ name: "warm_urls", arguments: { siteId: site.id, urls: [`http://${site.domain}/`], region: ["fr"] } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    const { data } = await log("?action=site.warmed", own);
    expect(data.map((e) => [e.actor.type, e.actor.label, e.target.id])).toEqual([["key", (await api("GET", "/v1/me", { key: own })).body.api_key.prefix, String(site.id)]]);
  });
});

describe("GET /v1/audit-log", () => {
  let own: string;
  let ownPrefix: string;
  let siteIds: number[];
  beforeAll(async () => {
    own = await newKey();
    ownPrefix = (await api("GET", "/v1/me", { key: own })).body.api_key.prefix;
    siteIds = [];
    for (let i = 0; i < 3; i++) {
      const created = await api("POST", "/v1/sites", { key: own, body: { domain: `filter-${i}-${Date.now()}.test` } });
      siteIds.push(created.body.id);
      await api("PATCH", `/v1/sites/${created.body.id}`, { key: own, body: { max_requests_per_second: 5 } });
    }
  });

  it("filters by actor, action (exact or prefix) and target", async () => {
    expect((await log(`?actor=${ownPrefix}`, own)).total).toBe(6);
    expect((await log("?actor=phk_nobody", own)).total).toBe(0);
    expect((await log("?action=site.updated", own)).data.every((e) => e.action === "site.updated")).toBe(true);
    expect((await log("?action=site.updated", own)).total).toBe(3);
    expect((await log("?action=site.", own)).total).toBe(6);
    expect((await log("?action=site.*", own)).total).toBe(6);
    expect((await log("?action=boost.", own)).total).toBe(0);
    const one = await log(`?target_type=site&target_id=${siteIds[1]}`, own);
    expect(one.data.map((e) => e.action)).toEqual(["site.updated", "site.created"]);
    expect((await log(`?target_type=boost&target_id=${siteIds[1]}`, own)).total).toBe(0);
  });

  it("pages newest first", async () => {
    const first = await log("?action=site.&limit=4", own);
    expect(first).toMatchObject({ total: 6, limit: 4, offset: 0 });
    expect(first.data).toHaveLength(4);
    const second = await log("?action=site.&limit=4&offset=4", own);
    expect(second.data).toHaveLength(2);
    const ids = [...first.data, ...second.data].map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it.each([["?action=Site Created"], ["?action=site.**"], ["?target_type=SITE"], ["?target_id=a b"], ["?actor="], ["?limit=0"]])("refuses %s with 422", async (query) => {
    const response = await api("GET", `/v1/audit-log${query}`, { key: own });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("validation_failed");
  });

  it("needs the audit:read scope", async () => {
    const reader = await newKey("sites:read,sites:write");
    const refused = await api("GET", "/v1/audit-log", { key: reader });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "insufficient_scope", required_scope: "audit:read" });
    expect((await api("GET", "/v1/audit-log", { key: await newKey("audit:read") })).status).toBe(200);
    expect((await api("GET", "/v1/audit-log", {})).status).toBe(401);
  });

  it("shows only the caller's organization", async () => {
    const stranger = await newKey();
    // Its own first event: the operator CLI made its key.
    expect((await log("", stranger)).data.map((e) => [e.action, e.actor.type])).toEqual([["key.created", "operator"]]);
  });
});

describe("the dashboard's changes", () => {
  it("are recorded as the signed-in member's, by e-mail, and a key made there acts under its own prefix", async () => {
    const email = uniqueEmail("audit");
    await signUpAndConfirm(email, PASSWORD, uniqueClient());
    const headers = { ...dashboard, cookie: await sessionOf(email, PASSWORD) };

    const site = await api("POST", "/v1/sites", { headers, body: { domain: `dashboard-${Date.now()}.test` } });
    expect(site.status).toBe(201);
    const created = await api("POST", "/api/dashboard/keys", { headers, body: { name: "CI", scopes: ["sites:write", "audit:read"] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const newPrefix = created.body.api_key.prefix;
    expect((await api("PATCH", `/v1/sites/${site.body.id}`, { key: created.body.key, body: { max_concurrency: 2 } })).status).toBe(200);
    expect((await api("DELETE", `/api/dashboard/keys/${created.body.api_key.id}`, { headers })).status).toBe(200);

    const seen = await api("GET", "/v1/audit-log", { headers });
    expect(seen.status).toBe(200);
    const data = seen.body.data as AuditEvent[];
    expect(data.map((e) => [e.action, e.actor.type, e.actor.label, e.target.type, e.target.id])).toEqual([
      ["key.revoked", "user", email, "key", String(created.body.api_key.id)],
      ["site.updated", "key", newPrefix, "site", String(site.body.id)],
      ["key.created", "user", email, "key", String(created.body.api_key.id)],
      ["site.created", "user", email, "site", String(site.body.id)],
    ]);
    expect(data[0]!.actor.user_id).toBeTypeOf("number");
    expect(JSON.stringify(data)).not.toContain(created.body.key);
    const byMember = await api("GET", `/v1/audit-log?actor=${encodeURIComponent(email.toUpperCase())}`, { headers });
    expect(byMember.body.total).toBe(3);

    // One's own password and sessions: the user is the target, and the password never appears.
    const NEW_PASSWORD = "another long passphrase";
    expect((await api("PUT", "/api/dashboard/password", { headers, body: { current_password: PASSWORD, new_password: NEW_PASSWORD } })).status).toBe(204);
    expect((await api("DELETE", "/api/dashboard/sessions", { headers })).status).toBe(204);
    const again = { ...dashboard, cookie: await sessionOf(email, NEW_PASSWORD) };
    const own = await api("GET", "/v1/audit-log?target_type=user", { headers: again });
    expect(own.body.data.map((e: AuditEvent) => [e.action, e.actor.label, e.target.id, e.changes])).toEqual([
      ["user.sessions_ended", email, String(data[0]!.actor.user_id), []],
      ["user.password_changed", email, String(data[0]!.actor.user_id), []],
    ]);
    expect(JSON.stringify(own.body)).not.toContain(NEW_PASSWORD);
  });
});
