import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { api, baseUrl, createValidatedSite, newKey, serveSite } from "./support/api";

// The MCP server of the production build, driven by the SDK's own client over Streamable HTTP.

const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "preheat-api-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe("/mcp", () => {
  it("lists the tools, warms URLs and reads the run, as the API answers it", async () => {
    const key = await newKey();
    const site = await createValidatedSite(key);
    await serveSite(site.domain, { routes: {}, fallback: { status: 200, headers: { "x-cache": "HIT" } } });
    const client = await connect(key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["get_run", "get_site", "list_runs", "list_sites", "run_results", "trigger_boost", "warm_urls"]);

    const warmed = await call(client, "warm_urls", { siteId: site.id, urls: [`http://${site.domain}/a`], region: ["fr"] });
    expect(warmed.isError).toBeFalsy();
    const runId = (warmed.structuredContent as { run_id: number }).run_id;
    let run: { status: string } = { status: "pending" };
    for (let i = 0; i < 100 && !["done", "failed", "paused"].includes(run.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      run = (await call(client, "get_run", { runId })).structuredContent as { status: string };
    }
    expect(run).toMatchObject({ id: runId, status: "done", summary: { total_calls: 1, cache_hits: 1 } });
    expect(run).toEqual((await api("GET", `/v1/runs/${runId}`, { key })).body);
  });

  it("refuses warm_urls to a key without boosts:write, with the API's sentence", async () => {
    const owner = await newKey();
    const site = await createValidatedSite(owner);
    const reader = await newKey("sites:read,boosts:read,runs:read");
    const result = await call(await connect(reader), "warm_urls", { siteId: site.id, urls: [`http://${site.domain}/a`] });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "This API key lacks the boosts:write scope required by this operation." }]);
  });

  it("answers 401 without a valid key", async () => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Invalid or expired API key.", code: "invalid_api_key" });
  });
});
