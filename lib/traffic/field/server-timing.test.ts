import { describe, expect, it } from "vitest";
import { FIELD_CACHE_VERDICTS } from "@/lib/core/traffic";
import { readServerTiming } from "./server-timing";

// The Server-Timing entries each CDN sends, as docs/guide/site-owners/beacon.md turns them on, and the verdict and
// PoP country each gives. The browser hands the beacon every entry's name and description (its
// `desc`, unquoted); the entries below are written that way.
const read = (...entries: [string, string][]) => readServerTiming(entries.map(([name, desc]) => ({ name, desc })));

describe("readServerTiming", () => {
  it("reads CloudFront's Server-Timing option: the verdict in the entry's name, the PoP in cdn-pop", () => {
    const common: [string, string][] = [
      ["cdn-upstream-layer", "EDGE"],
      ["cdn-upstream-dns", ""],
      ["cdn-downstream-fbl", ""],
      ["cdn-rid", "k3VGc0QzFOtmbDWGbpC_zgnlrwH8ZxLA1k4DZ_s2c3hpkL2uqzSWUg=="],
    ];
    expect(read(["cdn-cache-hit", ""], ["cdn-pop", "CDG50-P1"], ...common)).toEqual({ verdict: "hit", pop: "FR" });
    expect(read(["cdn-cache-miss", ""], ["cdn-pop", "IAD89-C3"], ...common)).toEqual({ verdict: "miss", pop: "US" });
    // A refresh hit: CloudFront had the object and the origin answered 304: served from cache.
    expect(read(["cdn-cache-refresh", ""], ["cdn-pop", "FRA56-P4"])).toEqual({ verdict: "hit", pop: "DE" });
  });

  it("reads Akamai's cdn-cache entry (mPulse or the Server-Timing behaviour), which names no PoP", () => {
    expect(read(["cdn-cache", "HIT"], ["edge", ""], ["origin", ""])).toEqual({ verdict: "hit", pop: "" });
    expect(read(["cdn-cache", "MISS"], ["edge", ""], ["origin", ""])).toEqual({ verdict: "miss", pop: "" });
  });

  it("reads Cloudflare's cfCacheStatus, and the colo a Worker adds as cdn-pop", () => {
    expect(read(["cfCacheStatus", "HIT"], ["cfEdge", ""], ["cfOrigin", ""])).toEqual({ verdict: "hit", pop: "" });
    expect(read(["cfCacheStatus", "MISS"])).toMatchObject({ verdict: "miss" });
    expect(read(["cfCacheStatus", "EXPIRED"])).toMatchObject({ verdict: "miss" });
    expect(read(["cfCacheStatus", "DYNAMIC"])).toMatchObject({ verdict: "miss" });
    expect(read(["cfCacheStatus", "BYPASS"])).toMatchObject({ verdict: "miss" });
    expect(read(["cfCacheStatus", "STALE"])).toMatchObject({ verdict: "hit" });
    expect(read(["cfCacheStatus", "UPDATING"])).toMatchObject({ verdict: "hit" });
    expect(read(["cfCacheStatus", "REVALIDATED"])).toMatchObject({ verdict: "hit" });
    // NONE and UNKNOWN: a Worker or a rule answered before the cache was asked.
    expect(read(["cfCacheStatus", "NONE"])).toMatchObject({ verdict: "unknown" });
    expect(read(["cfCacheStatus", "HIT"], ["cdn-pop", "LHR"])).toEqual({ verdict: "hit", pop: "GB" });
  });

  it("reads fastly_info.state from the deliver snippet of docs/guide/site-owners/beacon.md, and server.datacenter as cdn-pop", () => {
    expect(read(["fastly", "HIT"], ["cdn-pop", "LCY"])).toEqual({ verdict: "hit", pop: "GB" });
    expect(read(["fastly", "HIT-CLUSTER"])).toMatchObject({ verdict: "hit" });
    expect(read(["fastly", "HIT-STALE"])).toMatchObject({ verdict: "hit" });
    expect(read(["fastly", "MISS-CLUSTER"])).toMatchObject({ verdict: "miss" });
    expect(read(["fastly", "PASS"])).toMatchObject({ verdict: "miss" });
    expect(read(["fastly", "HITPASS"])).toMatchObject({ verdict: "miss" });
    expect(read(["fastly", "ERROR"])).toMatchObject({ verdict: "unknown" });
  });

  it("reads Varnish's and nginx's cache entry as docs/guide/site-owners/beacon.md configures them", () => {
    expect(read(["cache", "HIT"])).toEqual({ verdict: "hit", pop: "" });
    expect(read(["cache", "MISS"])).toEqual({ verdict: "miss", pop: "" });
    expect(read(["cache", "PASS"])).toMatchObject({ verdict: "miss" });
    // nginx's $upstream_cache_status
    for (const [status, verdict] of [
      ["HIT", "hit"],
      ["MISS", "miss"],
      ["BYPASS", "miss"],
      ["EXPIRED", "miss"],
      ["STALE", "hit"],
      ["UPDATING", "hit"],
      ["REVALIDATED", "hit"],
    ] as const) {
      expect(read(["cache", status]).verdict, status).toBe(verdict);
    }
  });

  it("lets the CDN nearest the visitor decide over an origin cache behind it, whatever the order", () => {
    expect(read(["cache", "MISS"], ["cdn-cache-hit", ""])).toMatchObject({ verdict: "hit" });
    expect(read(["cache", "HIT"], ["cdn-cache", "MISS"])).toMatchObject({ verdict: "miss" });
  });

  it("answers unknown without a verdict, and no PoP for a code it does not know", () => {
    expect(read()).toEqual({ verdict: "unknown", pop: "" });
    expect(read(["db", ""], ["app", ""])).toEqual({ verdict: "unknown", pop: "" });
    expect(read(["cache", "maybe"])).toEqual({ verdict: "unknown", pop: "" });
    expect(read(["cdn-pop", "XQZ9"], ["cache", "HIT"])).toEqual({ verdict: "hit", pop: "" });
    expect(read(["cdn-pop", "not a pop"])).toEqual({ verdict: "unknown", pop: "" });
    // Only the verdicts field_views keeps.
    for (const desc of ["HIT", "MISS", "PASS", "ERROR", ""]) expect(FIELD_CACHE_VERDICTS).toContain(read(["fastly", desc]).verdict);
  });

  it("reads names and descriptions case-insensitively, with their spaces", () => {
    expect(read([" CDN-Cache ", " hit "], ["CDN-POP", "cdg"])).toEqual({ verdict: "hit", pop: "FR" });
  });
});
