import { describe, expect, it } from "vitest";
import { readCacheStatus } from "./cache-status";
import type { NotCachedReason } from "@/lib/core/not-cached";
import { readFreshness } from "./freshness";
import { whyNotCached } from "@/lib/warm/not-cached";

const receivedAt = new Date("2026-03-01T12:00:00Z");
const date = receivedAt.toUTCString();

function reasonOf(status: number | null, headers: Record<string, string> = {}, requestHeaders: Record<string, string> = {}) {
  if (status === null) return whyNotCached(null, null, null);
  const cache = readCacheStatus(headers);
  return whyNotCached({ status, headers }, cache, readFreshness({ requestHeaders, status, responseHeaders: headers, cdn: cache.cdn, receivedAt }));
}

describe("whyNotCached", () => {
  it.each<[string, number | null, Record<string, string>, NotCachedReason | null]>([
    ["a hit", 200, { "x-cache": "HIT", "cache-control": "no-store", "set-cookie": "a=1" }, null],
    ["no answer", null, {}, "http_error"],
    ["a 500", 500, { "x-cache": "MISS" }, "http_error"],
    ["a 404", 404, {}, "http_error"],
    ["a final 3xx", 301, { "x-cache": "MISS" }, "redirect"],
    ["no-store", 200, { "x-cache": "MISS", "cache-control": "no-store", "set-cookie": "a=1" }, "no_store"],
    ["private", 200, { "x-cache": "MISS", "cache-control": "private, max-age=60" }, "private"],
    ["a 201 without a lifetime", 201, { "x-cache": "MISS", date, "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT" }, "status"],
    ["a cookie", 200, { "x-cache": "MISS", "set-cookie": "session=1", "cache-control": "max-age=0" }, "set_cookie"],
    ["no-cache", 200, { "x-cache": "MISS", "cache-control": "no-cache" }, "no_cache"],
    ["max-age=0", 200, { "x-cache": "MISS", "cache-control": "public, max-age=0" }, "no_cache"],
    ["an Expires of 0", 200, { "x-cache": "MISS", date, expires: "0" }, "no_cache"],
    ["max-age=0 with stale-while-revalidate is served stale while refreshed", 200, { "x-cache": "MISS", "cache-control": "max-age=0, stale-while-revalidate=60" }, "miss"],
    ["public, max-age=0, s-maxage=3600 is kept an hour by the CDN", 200, { "x-cache": "MISS", date, "cache-control": "public, max-age=0, s-maxage=3600" }, "miss"],
    ["an Age beyond the lifetime", 200, { "x-cache": "MISS", date, "cache-control": "max-age=60", age: "120" }, "stale_on_arrival"],
    ["a Date behind the lifetime", 200, { "x-cache": "MISS", date: new Date(receivedAt.getTime() - 7_200_000).toUTCString(), "cache-control": "s-maxage=3600" }, "stale_on_arrival"],
    [
      "Cloudflare keeps what Cloudflare-CDN-Cache-Control allows",
      200,
      { "cf-cache-status": "MISS", "cf-ray": "8c1-CDG", "cache-control": "no-store", "cloudflare-cdn-cache-control": "max-age=600" },
      "miss",
    ],
    ["Fastly follows Surrogate-Control's no-store", 200, { "x-cache": "MISS", "x-served-by": "cache-cdg20736-CDG", "cache-control": "s-maxage=600", "surrogate-control": "no-store" }, "no_store"],
    ["s-maxage=0", 200, { "x-cache": "MISS", "cache-control": "s-maxage=0, max-age=600" }, "no_cache"],
    ["Vary: *", 200, { "x-cache": "MISS", vary: "*" }, "vary"],
    ["Vary: Cookie", 200, { "x-cache": "MISS", vary: "Accept-Encoding, Cookie" }, "vary"],
    ["Vary: User-Agent", 200, { "x-cache": "MISS", vary: "user-agent" }, "vary"],
    ["a CDN bypass", 200, { "cf-cache-status": "BYPASS", "cf-ray": "8c1-CDG" }, "cdn_bypass"],
    ["a dynamic answer", 200, { "cf-cache-status": "DYNAMIC", "cf-ray": "8c1-CDG" }, "cdn_bypass"],
    ["no cache header at all (Cache-Control alone does not count)", 200, { "cache-control": "public, max-age=600", vary: "Accept-Encoding" }, "no_cache_detected"],
    ["a cacheable miss", 200, { "x-cache": "MISS", "cache-control": "public, s-maxage=600", vary: "Accept-Encoding" }, "miss"],
    ["an expired entry being refreshed", 200, { "cf-cache-status": "EXPIRED", "cf-ray": "8c1-CDG" }, "miss"],
  ])("%s", (_name, status, headers, reason) => {
    expect(reasonOf(status, headers)).toBe(reason);
  });

  it("an answer to the run's Authorization is kept only when public, s-maxage or must-revalidate allow it (RFC 9111 §3.5)", () => {
    const sent = { authorization: "Basic dXNlcjpwYXNz" };
    expect(reasonOf(200, { "x-cache": "MISS", "cache-control": "max-age=600" }, sent)).toBe("authorization");
    expect(reasonOf(200, { "x-cache": "MISS", "cache-control": "public, max-age=600" }, sent)).toBe("miss");
    expect(reasonOf(200, { "x-cache": "MISS", "cache-control": "s-maxage=600" }, sent)).toBe("miss");
  });
});
