import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, createSite, newKey, TRUSTED_PROXY } from "./support/api";

// The beacon through the production server: GET /beacon.js, POST /b (what is counted, what is
// refused without a write, the per-client budget) and GET /v1/sites/{siteId}/field. The figures'
// arithmetic (verdicts, buckets, percentiles, sampling) is checked in lib/traffic/field/, where
// time and the draw can be chosen.

let key: string;
beforeAll(async () => {
  key = await newKey();
});

/** A client address of its own (the test server trusts 127.0.0.2 to name it in X-Forwarded-For). */
const uniqueClient = () => `203.0.113.${1 + (randomBytes(1)[0]! % 250)}`;
const clients = new Set<string>();
function freshClient(): string {
  for (;;) {
    const client = uniqueClient();
    if (!clients.has(client)) return clients.add(client) && client;
  }
}

type View = { k?: string; p?: string; t?: number | null; d?: string; s?: [string, string][] };

/** POST /b as sendBeacon sends it: text/plain, the page's Origin, from `client`. */
function beacon(body: View | string, options: { origin?: string | null; client?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = { "content-type": options.contentType ?? "text/plain;charset=UTF-8", "x-forwarded-for": options.client ?? freshClient() };
  if (options.origin !== null) headers.origin = options.origin ?? "";
  return api("POST", "/b", { rawBody: typeof body === "string" ? body : JSON.stringify(body), headers, from: TRUSTED_PROXY });
}

async function siteWithBeacon() {
  const site = await createSite(key);
  const read = await api("GET", `/v1/sites/${site.id}`, { key });
  return { ...site, beacon_key: read.body.beacon_key as string, origin: `https://${site.domain}` };
}

async function viewsOf(siteId: number): Promise<number> {
  const field = await api("GET", `/v1/sites/${siteId}/field`, { key });
  expect(field.status).toBe(200);
  return field.body.totals.views;
}

describe("GET /beacon.js", () => {
  it("serves the same small script to any page: cacheable, loadable cross-origin, honouring GPC and Do Not Track", async () => {
    const response = await fetch(`${inject("baseUrl")}/beacon.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(response.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(response.headers.get("set-cookie")).toBeNull();
    const script = await response.text();
    expect(script.length).toBeLessThan(1024);
    for (const part of ["globalPrivacyControl", "doNotTrack", "sendBeacon", "serverTiming", "responseStart", "location.pathname", "dataset.site"]) expect(script).toContain(part);
    // No storage, no cookie, no query string.
    for (const part of ["cookie", "localStorage", "sessionStorage", "location.search", "location.href"]) expect(script).not.toContain(part);
  });
});

describe("POST /b", () => {
  it("counts a view from the site's own page (or its www. form) in its hour, with its device, verdict, PoP and TTFB: 204, CORS for the page", async () => {
    const site = await siteWithBeacon();
    const hit = await beacon(
      {
        k: site.beacon_key,
        p: "/shoes/red",
        t: 180,
        d: "m",
        s: [
          ["cdn-cache-hit", ""],
          ["cdn-pop", "CDG50-P1"],
        ],
      },
      { origin: site.origin },
    );
    expect(hit.status).toBe(204);
    expect(hit.body).toBeNull();
    expect(hit.headers.get("access-control-allow-origin")).toBe(site.origin);
    const miss = await beacon({ k: site.beacon_key, p: "/", t: 950, d: "d", s: [["cache", "MISS"]] }, { origin: `http://www.${site.domain}` });
    expect(miss.status).toBe(204);

    const field = await api("GET", `/v1/sites/${site.id}/field`, { key });
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    expect(field.body.hours.at(-1)).toMatchObject({ hour, views: 2, hits: 1, misses: 1, unknown: 0, hit_ratio: 0.5 });
    expect(field.body.totals).toMatchObject({ views: 2, hits: 1, misses: 1, hit_ratio: 0.5 });
    expect(Math.abs(field.body.totals.ttfb_p75_ms - 950)).toBeLessThanOrEqual(950 * 0.025 + 0.5);
    expect(field.body.devices.map((d: { device: string; views: number }) => [d.device, d.views])).toEqual([
      ["mobile", 1],
      ["desktop", 1],
    ]);
    expect(field.body.pop_regions).toMatchObject([{ country: "FR", views: 1, hits: 1, hit_ratio: 1 }]);
    expect(field.body).toMatchObject({ site_id: site.id, sample_rate: 1, beacon_key: site.beacon_key });
    expect(field.body.script_tag).toBe(`<script async src="http://localhost:${new URL(inject("baseUrl")).port}/beacon.js" data-site="${site.beacon_key}"></script>`);
  });

  it("refuses another origin, a missing one, an unknown key, an oversized or malformed body and a path outside the site, counting nothing", async () => {
    const site = await siteWithBeacon();
    const good = { k: site.beacon_key, p: "/", t: 100, d: "d", s: [] as [string, string][] };
    const cases: [string, () => ReturnType<typeof beacon>, number, string][] = [
      ["another origin", () => beacon(good, { origin: "https://evil.example" }), 403, "origin_not_allowed"],
      ["a look-alike origin", () => beacon(good, { origin: `https://${site.domain}.evil.example` }), 403, "origin_not_allowed"],
      ["a subdomain", () => beacon(good, { origin: `https://blog.${site.domain}` }), 403, "origin_not_allowed"],
      ["no origin", () => beacon(good, { origin: null }), 403, "origin_not_allowed"],
      ["an opaque origin", () => beacon(good, { origin: "null" }), 403, "origin_not_allowed"],
      ["an unknown key", () => beacon({ ...good, k: "0".repeat(20) }, { origin: site.origin }), 404, "not_found"],
      ["an oversized body", () => beacon({ ...good, s: Array.from({ length: 30 }, () => ["x".repeat(60), "y".repeat(200)]) }, { origin: site.origin }), 413, "payload_too_large"],
      ["malformed JSON", () => beacon(`{"k":"${site.beacon_key}","p":"/"`, { origin: site.origin }), 400, "invalid_json"],
      ["not an object", () => beacon("[1,2]", { origin: site.origin }), 422, "validation_failed"],
      ["an unknown field", () => beacon({ ...good, ip: "198.51.100.7" } as View, { origin: site.origin }), 422, "validation_failed"],
      ["an absolute URL", () => beacon({ ...good, p: "https://evil.example/" }, { origin: site.origin }), 422, "validation_failed"],
      ["another host", () => beacon({ ...good, p: "//evil.example/page" }, { origin: site.origin }), 422, "validation_failed"],
      ["a query string", () => beacon({ ...good, p: "/account?email=a@b.example" }, { origin: site.origin }), 422, "validation_failed"],
      ["a dot segment", () => beacon({ ...good, p: "/a/../../etc/passwd" }, { origin: site.origin }), 422, "validation_failed"],
      ["a NUL", () => beacon({ ...good, p: "/a\u0000b" }, { origin: site.origin }), 422, "validation_failed"],
      ["a path too long", () => beacon({ ...good, p: `/${"a".repeat(1100)}` }, { origin: site.origin }), 422, "validation_failed"],
      ["an unknown device", () => beacon({ ...good, d: "watch" }, { origin: site.origin }), 422, "validation_failed"],
    ];
    for (const [label, send, status, code] of cases) {
      const response = await send();
      expect(response.status, label).toBe(status);
      expect(response.body.code, label).toBe(code);
      expect(typeof response.body.error, label).toBe("string");
    }
    expect(await viewsOf(site.id)).toBe(0);
    // The same view, sent right, counts.
    expect((await beacon(good, { origin: site.origin })).status).toBe(204);
    expect(await viewsOf(site.id)).toBe(1);
  });

  it("refuses a flood from one client past its budget (429, Retry-After) and counts nothing more; another client still counts", async () => {
    const site = await siteWithBeacon();
    const flooder = freshClient();
    const view = { k: site.beacon_key, p: "/", t: 50, d: "d", s: [["cache", "HIT"]] as [string, string][] };
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof beacon>> | undefined;
    // PREHEAT_BEACON_PER_CLIENT_PER_MINUTE is 120 by default.
    for (let i = 0; i < 125; i++) {
      const response = await beacon(view, { origin: site.origin, client: flooder });
      statuses.push(response.status);
      if (response.status === 429) refused ??= response;
    }
    expect(statuses.filter((s) => s === 204)).toHaveLength(120);
    expect(statuses.slice(120)).toEqual(Array(5).fill(429));
    expect(refused!.body.code).toBe("rate_limited");
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await viewsOf(site.id)).toBe(120);
    // A bad body from the flooder is refused by its budget first.
    expect((await beacon("nonsense", { origin: site.origin, client: flooder })).status).toBe(429);
    expect((await beacon(view, { origin: site.origin })).status).toBe(204);
    expect(await viewsOf(site.id)).toBe(121);
  });

  it("keeps nothing that identifies a visitor: no address in the logs or the answers, no cookie set", async () => {
    const site = await siteWithBeacon();
    const client = "198.51.100.231";
    const response = await beacon({ k: site.beacon_key, p: "/", d: "t" }, { origin: site.origin, client });
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toBeNull();
    const refusedResponse = await beacon({ k: site.beacon_key, p: "/" }, { origin: "https://evil.example", client });
    expect(JSON.stringify(refusedResponse.body)).not.toContain(client);
    const field = await api("GET", `/v1/sites/${site.id}/field`, { key });
    expect(JSON.stringify(field.body)).not.toContain(client);
    expect(field.body.devices).toMatchObject([{ device: "tablet", views: 1, unknown: 1, ttfb_p50_ms: null }]);
    // Give the server's log a moment to be written.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(readFileSync(inject("serverLog"), "utf8")).not.toContain(client);
  });

  it("takes POST only", async () => {
    expect((await api("GET", "/b")).status).toBe(405);
  });
});

describe("GET /v1/sites/{siteId}/field", () => {
  it("answers the last 24 hours by default, the one going on the last of them, and the site's tag", async () => {
    const site = await siteWithBeacon();
    const field = await api("GET", `/v1/sites/${site.id}/field`, { key });
    expect(field.status).toBe(200);
    expect(field.body.hours).toHaveLength(24);
    expect(field.body.totals).toEqual({ views: 0, hits: 0, misses: 0, unknown: 0, hit_ratio: null, ttfb_p50_ms: null, ttfb_p75_ms: null });
    expect(field.body.devices).toEqual([]);
    expect(field.body.pop_regions).toEqual([]);
    expect(field.body.script_tag).toContain(`data-site="${site.beacon_key}"`);
    expect(field.body.script_tag).toMatch(/^<script async src="http[^"]+\/beacon\.js" data-site="[0-9a-f]{20}"><\/script>$/);
  });

  it("refuses a bad or overlong period with 422, another account's site with 404, a key without sites:read with 403", async () => {
    const site = await siteWithBeacon();
    const to = new Date();
    expect((await api("GET", `/v1/sites/${site.id}/field?from=yesterday`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/field?from=${to.toISOString()}&to=${new Date(to.getTime() - 3_600_000).toISOString()}`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/field?from=${new Date(to.getTime() - 32 * 86_400_000).toISOString()}&to=${to.toISOString()}`, { key })).status).toBe(422);
    expect((await api("GET", `/v1/sites/${site.id}/field`, { key: await newKey() })).status).toBe(404);
    expect((await api("GET", `/v1/sites/${site.id}/field`, { key: await newKey("runs:read") })).status).toBe(403);
  });
});
