import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { api, baseUrl, createValidatedSite, newKey, serveSite } from "./support/api";
import { sessionOf, signUpAndConfirm, uniqueClient } from "./support/sessions";

// What started each run, as GET /v1/runs/{id} and the lists tell it: a key, a member, the MCP server, a deploy hook, its follow-up.

const triggerOf = async (key: string, runId: number) => (await api("GET", `/v1/runs/${runId}`, { key })).body.triggered_by;

describe("a run's triggered_by", () => {
  it("names the key of an API warm and of an API boost run, in the run and in the lists", async () => {
    const key = await newKey();
    const prefix = (await api("GET", "/v1/me", { key })).body.api_key.prefix;
    const site = await createValidatedSite(key);
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`http://${site.domain}/`] } });
    expect(await triggerOf(key, warm.body.run_id)).toEqual({ kind: "api", label: prefix });
    const listed = await api("GET", `/v1/sites/${site.id}/warm-runs`, { key });
    expect(listed.body.data[0].triggered_by).toEqual({ kind: "api", label: prefix });

    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Now", source_type: "csv", source_url: `http://${site.domain}/u.csv`, region: ["fr"] } });
    const run = await api("POST", `/v1/boosts/${boost.body.id}/run`, { key });
    const runs = await api("GET", `/v1/runs?boost_id=${boost.body.id}`, { key });
    expect(runs.body.data.find((r: { id: number }) => r.id === run.body.run_id).triggered_by).toEqual({ kind: "api", label: prefix });
  });

  it("names a deploy hook, and a follow-up queued while its first run warms", async () => {
    const key = await newKey();
    const site = await createValidatedSite(key);
    const urls = Array.from({ length: 8 }, (_, i) => `http://${site.domain}/slow/${i}`);
    await serveSite(site.domain, {
      routes: { [`/${site.validation_token}.html`]: { body: site.validation_token }, "/u.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } },
      fallback: { body: "page", delayMs: 1000 },
    });
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key, body: { name: "Deploy", source_type: "csv", source_url: `http://${site.domain}/u.csv`, region: ["fr"] } });
    const hook = await api("POST", `/v1/boosts/${boost.body.id}/hooks`, { key, body: { name: "CI deploy" } });
    const first = await api("POST", new URL(hook.body.url).pathname, {});
    expect(first.body.coalesced).toBe(false);
    expect(await triggerOf(key, first.body.run_id)).toEqual({ kind: "deploy_hook", label: "CI deploy" });
    await expect.poll(async () => (await api("GET", `/v1/runs/${first.body.run_id}`, { key })).body.status, { timeout: 15_000, interval: 100 }).toBe("running");
    const second = await api("POST", new URL(hook.body.url).pathname, {});
    expect(second.body).toMatchObject({ coalesced: true, status: "pending" });
    expect(await triggerOf(key, second.body.run_id)).toEqual({ kind: "follow_up", label: "CI deploy" });
  }, 30_000);

  it("names the member who warmed from the dashboard, and the key behind an MCP tool call", async () => {
    const email = `trigger-${Date.now()}@example.com`;
    await signUpAndConfirm(email, "a long enough password", uniqueClient());
    const cookie = await sessionOf(email, "a long enough password");
    const key = await newKey("all", email);
    const site = await createValidatedSite(key);
    const fromDashboard = await api("POST", `/v1/sites/${site.id}/warm`, { headers: { cookie, "x-preheat-dashboard": "1" }, body: { urls: [`http://${site.domain}/a`] } });
    expect(fromDashboard.status, JSON.stringify(fromDashboard.body)).toBe(202);
    expect(await triggerOf(key, fromDashboard.body.run_id)).toEqual({ kind: "dashboard", label: email });

    await expect.poll(async () => (await api("GET", `/v1/runs/${fromDashboard.body.run_id}`, { key })).body.status, { timeout: 15_000 }).not.toMatch(/pending|running/);
    const mcp = new Client({ name: "trigger-test", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const result = await mcp.callTool({ name: "warm_urls", arguments: { siteId: site.id, urls: [`http://${site.domain}/b`], region: ["fr"] } });
      const runId = (result.structuredContent as { run_id: number }).run_id;
      expect(await triggerOf(key, runId)).toEqual({ kind: "mcp", label: (await api("GET", "/v1/me", { key })).body.api_key.prefix });
    } finally {
      await mcp.close();
    }
  }, 40_000);
});
