import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldViews, rateLimits, sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { FIELD_RETENTION_DAYS, pruneFieldViews, siteField } from "./field";
import { fromSitePage, receiveView } from "./receive";
import { bucketMs, ttfbBucket } from "./ttfb";

// The beacon's page views from their post to the figures of GET /v1/sites/{siteId}/field, on an
// embedded database: what is counted, where, and what is refused without a write. The HTTP edge
// (the route, its size cap, its CORS headers) is checked by the api suite (app/api/v1/__tests__/beacon.test.ts).

let world: LocalWorld;
let db: Database;
let ctx: AccountContext;

beforeAll(async () => {
  world = await startLocalWorld((_req, res) => res.end(), { email: "field@example.com" });
  ({ ctx } = world);
  db = world.handle.db;
});

afterAll(async () => {
  await world?.stop();
});

const encode = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));

async function newSite(domain: string) {
  const site = await createSite(ctx, { domain });
  return { id: site.id, key: site.beaconKey, domain };
}

async function rowsOf(siteId: number) {
  return db.select().from(fieldViews).where(eq(fieldViews.siteId, siteId));
}

let address = 0;
/** A client of its own per call unless named: the per-client budget stays out of the way. */
function post(key: string, view: Record<string, unknown>, options: { origin?: string | null; client?: string } = {}) {
  return receiveView(db, {
    body: encode({ k: key, d: "d", s: [], ...view }),
    origin: options.origin === undefined ? "https://shop.example" : options.origin,
    client: options.client ?? `198.51.100.${++address % 250}`,
  });
}

describe("fromSitePage", () => {
  it("admits the site's own pages, http or https, its www. form either way, any port unless the domain names one", () => {
    expect(fromSitePage("https://shop.example", "shop.example")).toBe(true);
    expect(fromSitePage("http://www.shop.example", "shop.example")).toBe(true);
    expect(fromSitePage("https://shop.example", "www.shop.example")).toBe(true);
    expect(fromSitePage("https://shop.example:8443", "shop.example")).toBe(true);
    expect(fromSitePage("http://shop.localhost:8080", "shop.localhost:8080")).toBe(true);
    expect(fromSitePage("http://shop.localhost:8081", "shop.localhost:8080")).toBe(false);
  });

  it("refuses any other page: another domain, a subdomain, a look-alike, no Origin, an opaque one, another scheme", () => {
    for (const origin of [
      null,
      "",
      "null",
      "https://evil.example",
      "https://shop.example.evil.example",
      "https://blog.shop.example",
      "https://evilshop.example",
      "file://",
      "chrome-extension://abc",
    ]) {
      expect(fromSitePage(origin, "shop.example"), String(origin)).toBe(false);
    }
  });
});

describe("receiveView and siteField", () => {
  it("counts each view in its hour, by path, device, verdict, PoP country and TTFB bucket, and adds up the same views", async () => {
    const site = await newSite("shop.example");
    const origin = "https://shop.example";
    await post(
      site.key,
      {
        p: "/",
        t: 120,
        d: "d",
        s: [
          ["cdn-cache-hit", ""],
          ["cdn-pop", "CDG50-P1"],
        ],
      },
      { origin },
    );
    await post(
      site.key,
      {
        p: "/",
        t: 120,
        d: "d",
        s: [
          ["cdn-cache-hit", ""],
          ["cdn-pop", "CDG50-P1"],
        ],
      },
      { origin },
    );
    await post(
      site.key,
      {
        p: "/",
        t: 900,
        d: "m",
        s: [
          ["cdn-cache-miss", ""],
          ["cdn-pop", "IAD89-C3"],
        ],
      },
      { origin },
    );
    await post(site.key, { p: "/shoes", t: 60, d: "t", s: [["cache", "HIT"]] }, { origin: "https://www.shop.example" });
    await post(site.key, { p: "/shoes", d: "m" }, { origin });

    const rows = await rowsOf(site.id);
    expect(rows.reduce((n, row) => n + row.views, 0)).toBe(5);
    expect(rows.find((row) => row.path === "/" && row.device === "desktop")).toMatchObject({ pop: "FR", cache: "hit", ttfbBucket: ttfbBucket(120), views: 2 });
    expect(rows.find((row) => row.path === "/shoes" && row.device === "mobile")).toMatchObject({ pop: "", cache: "unknown", ttfbBucket: -1, views: 1 });
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    for (const row of rows) expect(row.hour.getTime()).toBe(hour.getTime());

    const field = await siteField(ctx, site.id, {});
    expect(field.hours).toHaveLength(24);
    expect(field.hours.at(-1)).toMatchObject({ hour: hour.toISOString(), views: 5, hits: 3, misses: 1, unknown: 1, hit_ratio: 0.75 });
    expect(field.hours.slice(0, -1).every((h) => h.views === 0 && h.hit_ratio === null && h.ttfb_p50_ms === null)).toBe(true);
    // Four times: 60, 120, 120, 900 → the median is the 2nd (120), the 75th percentile the 3rd (120).
    expect(field.totals).toEqual({ views: 5, hits: 3, misses: 1, unknown: 1, hit_ratio: 0.75, ttfb_p50_ms: bucketMs(ttfbBucket(120)), ttfb_p75_ms: bucketMs(ttfbBucket(120)) });
    expect(field.devices.map((d) => [d.device, d.views, d.hits, d.misses])).toEqual([
      ["mobile", 2, 0, 1],
      ["tablet", 1, 1, 0],
      ["desktop", 2, 2, 0],
    ]);
    expect(field.pop_regions.map((p) => [p.country, p.views, p.hit_ratio])).toEqual([
      ["FR", 2, 1],
      ["US", 1, 0],
    ]);
    expect(field.sample_rate).toBe(1);
    expect(field.beacon_key).toBe(site.key);
    expect(field.script_tag).toMatch(new RegExp(`^<script async src="http://localhost:\\d+/beacon\\.js" data-site="${site.key}"></script>$`));
  });

  it("answers only the hours asked for, and refuses an empty or overlong period", async () => {
    const site = await newSite("period.example");
    const to = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - 3 * 3_600_000);
    const field = await siteField(ctx, site.id, { from: from.toISOString(), to: to.toISOString() });
    expect(field.hours.map((h) => h.hour)).toEqual([0, 1, 2].map((i) => new Date(from.getTime() + i * 3_600_000).toISOString()));
    await expect(siteField(ctx, site.id, { from: to.toISOString(), to: from.toISOString() })).rejects.toThrow(/before/);
    await expect(siteField(ctx, site.id, { from: new Date(to.getTime() - 32 * 86_400_000).toISOString(), to: to.toISOString() })).rejects.toThrow(/31 days/);
  });

  it("refuses another origin, a missing one, an unknown key, a malformed or oversized view and a path outside the site, writing nothing", async () => {
    const site = await newSite("strict.example");
    const good = { k: site.key, p: "/", d: "d", s: [] };
    const refusals: [string, () => Promise<unknown>, RegExp][] = [
      ["another origin", () => post(site.key, { p: "/" }, { origin: "https://evil.example" }), /own pages/],
      ["no origin", () => post(site.key, { p: "/" }, { origin: null }), /own pages/],
      ["unknown key", () => post("nosuchkey0000000000", { p: "/" }, { origin: "https://strict.example" }), /No site/],
      ["not JSON", () => receiveView(db, { body: encode("{k:"), origin: "https://strict.example", client: "203.0.113.1" }), /JSON/],
      ["an array", () => receiveView(db, { body: encode([good]), origin: "https://strict.example", client: "203.0.113.1" }), /./],
      ["an unknown field", () => receiveView(db, { body: encode({ ...good, ip: "1.2.3.4" }), origin: "https://strict.example", client: "203.0.113.1" }), /./],
    ];
    for (const path of ["https://evil.example/", "//evil.example/x", "shoes", "/a?email=x@y.z", "/a#x", "/a/../b", "/%zz", "/a\u0000", "/é", `/${"a".repeat(1100)}`, "/a b"]) {
      refusals.push([`path ${path.slice(0, 30)}`, () => post(site.key, { p: path }, { origin: "https://strict.example" }), /./]);
    }
    refusals.push(["a device class unknown", () => post(site.key, { p: "/", d: "phone" }, { origin: "https://strict.example" }), /./]);
    refusals.push(["a negative time", () => post(site.key, { p: "/", t: -1 }, { origin: "https://strict.example" }), /./]);
    refusals.push(["too many entries", () => post(site.key, { p: "/", s: Array.from({ length: 33 }, () => ["a", "b"]) }, { origin: "https://strict.example" }), /./]);
    for (const [label, refusal, message] of refusals) await expect(refusal(), label).rejects.toThrow(message);
    expect(await rowsOf(site.id)).toEqual([]);
  });

  it("refuses a flood from one client past its budget, counting nothing more, and keeps no address in the budget's row", async () => {
    process.env.PREHEAT_BEACON_PER_CLIENT_PER_MINUTE = "5";
    try {
      const site = await newSite("flood.example");
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => post(site.key, { p: "/" }, { origin: "https://flood.example", client: "192.0.2.77" })));
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(5);
      expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason.message)).toEqual(
        Array(3).fill("Too many page views from this client: at most 5 a minute."),
      );
      expect((await rowsOf(site.id))[0]?.views).toBe(5);
      // Another client of the same site is not held back.
      await post(site.key, { p: "/" }, { origin: "https://flood.example", client: "192.0.2.78" });
      expect((await rowsOf(site.id))[0]?.views).toBe(6);
    } finally {
      delete process.env.PREHEAT_BEACON_PER_CLIENT_PER_MINUTE;
    }
    // On the embedded database budgets are counted in memory; on a server they are rows, keyed by a hash.
    const stored = await db.select().from(rateLimits);
    expect(JSON.stringify(stored)).not.toContain("192.0.2.77");
  });

  it("counts a sample at PREHEAT_BEACON_SAMPLE, after every check, and says the rate", async () => {
    process.env.PREHEAT_BEACON_SAMPLE = "0.25";
    try {
      const site = await newSite("sampled.example");
      const draws = [0.1, 0.3, 0.24, 0.9];
      const counted = [];
      for (const draw of draws) counted.push((await receiveView(db, { body: encode({ k: site.key, p: "/", d: "d" }), origin: "https://sampled.example", client: "203.0.113.9" }, () => draw)).counted);
      expect(counted).toEqual([true, false, true, false]);
      expect((await rowsOf(site.id))[0]?.views).toBe(2);
      // A refusal never depends on the draw.
      await expect(receiveView(db, { body: encode({ k: site.key, p: "/", d: "d" }), origin: "https://evil.example", client: "203.0.113.9" }, () => 0.9)).rejects.toThrow(/own pages/);
      expect((await siteField(ctx, site.id, {})).sample_rate).toBe(0.25);
    } finally {
      delete process.env.PREHEAT_BEACON_SAMPLE;
    }
  });

  it("keeps each site's views apart, and another organization's site is not found", async () => {
    const site = await newSite("apart.example");
    await post(site.key, { p: "/" }, { origin: "https://apart.example" });
    const other = await newSite("other.example");
    expect((await siteField(ctx, other.id, {})).totals.views).toBe(0);
    await expect(siteField({ ...ctx, accountId: ctx.accountId + 1000 }, site.id, {})).rejects.toThrow(/not found/);
    // A site's beacon key is its own, random, and the same column the site object shows.
    const [row] = await db.select({ key: sites.beaconKey }).from(sites).where(eq(sites.id, site.id));
    expect(row?.key).toMatch(/^[0-9a-f]{20}$/);
    expect(row?.key).not.toBe(other.key);
    await db.execute(sql`select 1`);
  });
});

describe("pruneFieldViews", () => {
  it("drops the hours past 90 days and keeps the rest", async () => {
    const site = await newSite("pruned.example.com");
    const now = new Date("2026-11-28T12:00:00Z");
    const view = { siteId: site.id, path: "/", device: "mobile", pop: "", cache: "hit", ttfbBucket: -1, views: 1 };
    await db.insert(fieldViews).values([
      { ...view, hour: new Date(now.getTime() - (FIELD_RETENTION_DAYS * 24 + 1) * 3_600_000) },
      { ...view, hour: new Date(now.getTime() - (FIELD_RETENTION_DAYS * 24 - 1) * 3_600_000) },
    ]);
    await pruneFieldViews(db, now);
    expect((await rowsOf(site.id)).map((row) => row.hour.toISOString())).toEqual([new Date(now.getTime() - (FIELD_RETENTION_DAYS * 24 - 1) * 3_600_000).toISOString()]);
  });
});
