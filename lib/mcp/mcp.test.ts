import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as runRoute from "@/app/api/v1/runs/[runId]/route";
import * as siteRoute from "@/app/api/v1/sites/[siteId]/route";
import * as warmRoute from "@/app/api/v1/sites/[siteId]/warm/route";
import * as sitesRoute from "@/app/api/v1/sites/route";
import { sites } from "@/drizzle/schema";
import { INVALID_KEY_MESSAGE } from "@/lib/api/handler";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Scope } from "@/lib/auth/scopes";
import type { DatabaseHandle } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { handleMcpRequest } from "./handler";

// The MCP handler, like every route, reaches the process's database through getDb: here, the world's.
const database = vi.hoisted(() => ({ handle: undefined as DatabaseHandle | undefined }));
vi.mock("@/lib/db", async (importOriginal) => ({ ...(await importOriginal<typeof import("@/lib/db")>()), getDb: async () => database.handle!.db }));

const BASE = "http://preheat.test";
const TOOLS = ["get_run", "get_site", "list_runs", "list_sites", "run_results", "trigger_boost", "warm_urls"];

let world: LocalWorld;
let fullKey: string;
let readOnlyKey: string;
let siteId: number;
const clients: Client[] = [];

beforeAll(async () => {
  process.env.PREHEAT_JOBS_POLL_SECONDS = "0.5";
  // The site answers every page, with no cache header: every call is a result to list.
  world = await startLocalWorld((_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>page</body></html>"), { email: "mcp@example.com", work: true });
  database.handle = world.handle;
  const newKey = async (scopes: Scope[]) => (await createApiKey(world.handle.db, { accountId: world.ctx.accountId, name: "mcp", scopes })).key;
  fullKey = await newKey(["sites:read", "sites:write", "boosts:read", "boosts:write", "runs:read"]);
  readOnlyKey = await newKey(["sites:read", "runs:read"]);
  const site = await createSite(world.ctx, { domain: "mcp.test" });
  await world.handle.db.update(sites).set({ validated: true }).where(eq(sites.id, site.id));
  siteId = site.id;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await world?.stop();
});

/** The SDK's own client, speaking Streamable HTTP to handleMcpRequest with `key`. */
async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "preheat-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: (url, init) => handleMcpRequest(new Request(url, init)),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) => (result.content[0] as { type: "text"; text: string }).text;

/** What the `/v1` route answers, for the same key: the API side of every comparison. */
async function apiAnswer(
  handler: (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>,
  path: string,
  key: string,
  options: { params?: Record<string, string>; body?: unknown } = {},
) {
  const init: RequestInit = { headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } };
  if (options.body !== undefined) Object.assign(init, { method: "POST", body: JSON.stringify(options.body) });
  const response = await handler(new Request(`${BASE}${path}`, init), { params: Promise.resolve(options.params ?? {}) });
  return { status: response.status, body: await response.json() };
}

async function ended(client: Client, runId: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await call(client, "get_run", { runId })).structuredContent as { status: string };
    if (["done", "failed", "paused"].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the MCP server", () => {
  it("lists the seven tools, each saying the scope it needs, with the API's schemas as inputs", async () => {
    const { tools } = await (await connect(readOnlyKey)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const warm = tools.find((tool) => tool.name === "warm_urls")!;
    expect(warm.description).toContain("boosts:write");
    expect(warm.inputSchema).toMatchObject({ type: "object", required: ["siteId", "urls"], properties: { siteId: { type: "integer" }, urls: { type: "array", maxItems: 5000 } } });
    expect(tools.find((tool) => tool.name === "get_run")!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("answers list_sites with what GET /v1/sites answers, structured and as text", async () => {
    const result = await call(await connect(fullKey), "list_sites", {});
    expect(result.isError).toBeFalsy();
    const api = await apiAnswer(sitesRoute.GET, "/v1/sites", fullKey);
    expect(result.structuredContent).toEqual(api.body);
    expect(JSON.parse(textOf(result))).toEqual(api.body);
    expect(result.structuredContent).toMatchObject({ data: [{ id: siteId, domain: "mcp.test", validated: true }], total: 1, limit: 20, offset: 0 });
  });

  it("warms URLs, then reads the run and the calls that did not hit, as the API does", async () => {
    const client = await connect(fullKey);
    const warmed = await call(client, "warm_urls", { siteId, urls: ["http://mcp.test/a", "http://mcp.test/b"], region: ["fr"] });
    expect(warmed.isError).toBeFalsy();
    const { run_id: runId } = warmed.structuredContent as { run_id: number };
    expect(warmed.structuredContent).toEqual({ run_id: runId, url_count: 2, status: "pending" });

    expect((await call(client, "get_run", { runId })).structuredContent).toMatchObject({ id: runId });
    const run = await ended(client, runId);
    expect(run).toMatchObject({ status: "done", summary: { total_calls: 2 } });
    expect(run).toEqual((await apiAnswer(runRoute.GET, `/v1/runs/${runId}`, fullKey, { params: { runId: String(runId) } })).body);

    // Ids may come as the URL carries them too.
    const results = await call(client, "run_results", { runId: String(runId), limit: 1 });
    expect(results.structuredContent).toMatchObject({ total: 2, limit: 1, offset: 0, data: [{ url: "http://mcp.test/a", reason: "no_cache_detected" }] });
  });

  it("refuses warm_urls to a key without boosts:write, in the API's sentence", async () => {
    const result = await call(await connect(readOnlyKey), "warm_urls", { siteId, urls: ["http://mcp.test/c"] });
    const api = await apiAnswer(warmRoute.POST, `/v1/sites/${siteId}/warm`, readOnlyKey, { params: { siteId: String(siteId) }, body: { urls: ["http://mcp.test/c"] } });
    expect(api.status).toBe(403);
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: api.body.error }] });
    expect(textOf(result)).toContain("boosts:write");
  });

  it("answers an unknown run and a malformed id in the API's sentences", async () => {
    const client = await connect(readOnlyKey);
    for (const runId of ["999999", "0"]) {
      const result = await call(client, "get_run", { runId: Number(runId) });
      const api = await apiAnswer(runRoute.GET, `/v1/runs/${runId}`, readOnlyKey, { params: { runId } });
      expect(api.status).toBe(runId === "0" ? 422 : 404);
      expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: api.body.error }] });
    }
    const invalid = await call(await connect(fullKey), "warm_urls", { siteId, urls: [] });
    expect(invalid).toMatchObject({ isError: true, content: [{ text: "urls: must list at least one URL" }] });
  });

  it("limits a site-limited key to its sites, as the API does", async () => {
    const other = await createSite(world.ctx, { domain: "mcp-other.test" });
    const key = (await createApiKey(world.handle.db, { accountId: world.ctx.accountId, name: "one site", scopes: ["sites:read", "runs:read"], siteIds: [other.id] })).key;
    const client = await connect(key);
    const listed = await call(client, "list_sites", {});
    expect((listed.structuredContent as { data: { id: number }[]; total: number }).data.map((site) => site.id)).toEqual([other.id]);
    expect((listed.structuredContent as { total: number }).total).toBe(1);
    const refused = await call(client, "get_site", { siteId });
    const api = await apiAnswer(siteRoute.GET, `/v1/sites/${siteId}`, key, { params: { siteId: String(siteId) } });
    expect(api.status).toBe(404);
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: api.body.error }] });
  });

  it("answers a missing or unknown key with the API's 401", async () => {
    for (const authorization of [undefined, "Bearer phk_unknown"]) {
      const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      if (authorization) headers.authorization = authorization;
      const response = await handleMcpRequest(new Request(`${BASE}/mcp`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }));
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(await response.json()).toEqual({ error: INVALID_KEY_MESSAGE, code: "invalid_api_key" });
    }
    await expect(connect("phk_unknown")).rejects.toThrow();
  });

  it("takes a point of the key's API budget per request, and per tool call of a batch after its first", async () => {
    const key = (await createApiKey(world.handle.db, { accountId: world.ctx.accountId, name: "batch", scopes: ["sites:read"] })).key;
    process.env.PREHEAT_RATE_LIMIT_PER_MINUTE = "2";
    try {
      const batch = [1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_sites", arguments: {} } }));
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
      const response = await handleMcpRequest(new Request(`${BASE}/mcp`, { method: "POST", headers, body: JSON.stringify(batch) }));
      expect(response.headers.get("ratelimit-limit")).toBe("2");
      const answers = ((await response.json()) as { id: number; result: CallToolResult }[]).sort((a, b) => a.id - b.id);
      expect(answers.map(({ result }) => Boolean(result.isError))).toEqual([false, false, true]);
      expect(textOf(answers[2]!.result)).toMatch(/^Too many requests: the budget is 2 a minute; try again in \d+ s\.$/);
    } finally {
      delete process.env.PREHEAT_RATE_LIMIT_PER_MINUTE;
    }
  });

  it("answers GET and DELETE with 405: the server keeps no stream and no session", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await handleMcpRequest(new Request(`${BASE}/mcp`, { method, headers: { authorization: `Bearer ${fullKey}` } }));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });
});
