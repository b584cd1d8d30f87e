import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { findOrCreateUser } from "@/lib/accounts/users";
import { createApiKey } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/auth/scopes";
import { openDatabase } from "@/lib/db";
import { freePort } from "@/lib/testing/ports";
import { startProductionServer } from "@/lib/testing/production-server";
import { api, baseUrl, createValidatedSite, newKey, serveSite } from "./support/api";

// What an operator watches: health, readiness, Prometheus metrics, and one JSON log line per request.

const metricsToken = inject("metricsToken");
let key: string;

beforeAll(async () => {
  key = await newKey();
});

/** Every process's metrics, one after the other: the server's, and each separate worker's (which make the calls when they run apart). */
async function scrape(): Promise<string> {
  const texts: string[] = [];
  for (const url of inject("metricsUrls")) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(response.status, url).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    texts.push(await response.text());
  }
  return texts.join("\n");
}

/** A sample's value summed over the scraped processes, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const have = line.slice(name.length + 1, line.indexOf("}")).split(",");
    if (wanted.every((pair) => have.includes(pair))) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

describe("health", () => {
  it("/healthz and /readyz answer without a key", async () => {
    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", jobs: "ok" } });
  });

  it("/api/inngest does not exist when Inngest is not configured", async () => {
    expect((await fetch(`${baseUrl}/api/inngest`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/api/inngest`, { method: "PUT" })).status).toBe(404);
  });
});

describe("/metrics", () => {
  it("needs the metrics token when one is set, on the server and on every separate worker", async () => {
    for (const url of inject("metricsUrls")) {
      expect((await fetch(url)).status, url).toBe(401);
      expect((await fetch(url, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    }
  });

  it("counts a warm's calls by outcome and region, API requests by operation and status, and shows the queues and active runs", async () => {
    const site = await createValidatedSite(key);
    await serveSite(site.domain, {
      routes: { "/hit": { headers: { "x-cache": "HIT" } }, "/miss": { headers: { "x-cache": "MISS" } }, "/broken": { status: 500 } },
      fallback: { headers: { "x-cache": "HIT" } },
    });
    const before = await scrape();
    const urls = ["/hit", "/miss", "/broken", "/other"].map((path) => `http://${site.domain}${path}`);
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls, region: ["fr"] } });
    expect(warm.status).toBe(202);
    for (let i = 0; i < 150; i++) {
      if ((await api("GET", `/v1/runs/${warm.body.run_id}`, { key })).body.status === "done") break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const after = await scrape();
    const delta = (outcome: string) => sample(after, "preheat_warming_calls_total", { outcome, region: "fr" }) - sample(before, "preheat_warming_calls_total", { outcome, region: "fr" });
    // Other files warm at the same time (on the same counters): this warm's 2 hits, 1 miss and 1 error are at least there.
    expect(delta("hit")).toBeGreaterThanOrEqual(2);
    expect(delta("miss")).toBeGreaterThanOrEqual(1);
    expect(delta("error")).toBeGreaterThanOrEqual(1);
    expect(sample(after, "preheat_http_requests_total", { operation: "warmSite", method: "POST", status: "202" })).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^preheat_queue_depth\{job="run\.batch"\} \d+$/m);
    expect(after).toMatch(/^preheat_active_runs\{type="warm"\} \d+$/m);
    expect(after).toMatch(/^preheat_warming_calls_in_flight/m);
  });
});

describe("logs", () => {
  it("write one JSON line per request naming its request id, its route and its key's prefix, never the key", async () => {
    const requestId = `log-test-${randomUUID()}`;
    const response = await fetch(`${baseUrl}/v1/sites/2000000000`, { headers: { authorization: `Bearer ${key}`, "x-request-id": requestId } });
    expect(response.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = readFileSync(inject("serverLog"), "utf8");
    const lines = log.split("\n").filter((line) => line.includes(requestId));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: "info", msg: "request", request_id: requestId, method: "GET", route: "/v1/sites/{siteId}", operation: "getSite", status: 404, key_prefix: key.slice(0, 12) });
    expect(line.duration_ms).toEqual(expect.any(Number));
    expect(line.account_id).toEqual(expect.any(Number));
    expect(log).not.toContain(key);
  });
});

describe("configuration", () => {
  it("a bad value stops `next start` with a message naming the variable", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-bad-config-"));
    try {
      const start = startProductionServer(await freePort(), { PREHEAT_DATA_DIR: dataDir, PREHEAT_SITE_CONCURRENCY: "abc" });
      await expect(start).rejects.toThrow(/exited \(1\)[\s\S]*PREHEAT_SITE_CONCURRENCY/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("an embedded install without PREHEAT_SECRETS_KEY makes its own on first start, owner-only, and seals secrets with it", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "preheat-own-key-"));
    const handle = await openDatabase({ dataDir });
    const { user } = await findOrCreateUser(handle.db, "own-key@example.com");
    const ownKey = (await createApiKey(handle.db, { accountId: user.accountId, name: "test", scopes: [...SCOPES] })).key;
    await handle.close();
    const server = await startProductionServer(await freePort(), { PREHEAT_DATA_DIR: dataDir, PREHEAT_SECRETS_KEY: "" });
    try {
      const file = path.join(dataDir, "secrets.key");
      expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const headers = { authorization: `Bearer ${ownKey}`, "content-type": "application/json" };
      const site = await (await fetch(`${server.baseUrl}/v1/sites`, { method: "POST", headers, body: JSON.stringify({ domain: "own-key.example.com" }) })).json();
      // A receiver's secret is sealed: refused with 422 on a server without a key, made here.
      const receiver = await fetch(`${server.baseUrl}/v1/sites/${site.id}/change-receivers`, { method: "POST", headers, body: JSON.stringify({ kind: "sanity" }) });
      expect(receiver.status).toBe(201);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
