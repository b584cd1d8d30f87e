import { describe, expect, it } from "vitest";
import { readCacheStatus } from "./cache-status";
import type { NotCachedReason } from "@/lib/core/not-cached";
import { whyNotCached } from "@/lib/warm/not-cached";

const reasonOf = (status: number | null, headers: Record<string, string> = {}) => whyNotCached(status === null ? null : { status, headers }, status === null ? null : readCacheStatus(headers));

describe("whyNotCached", () => {
  it.each<[string, number | null, Record<string, string>, NotCachedReason | null]>([
    ["a hit", 200, { "x-cache": "HIT", "cache-control": "no-store", "set-cookie": "a=1" }, null],
    ["no answer", null, {}, "http_error"],
    ["a 500", 500, { "x-cache": "MISS" }, "http_error"],
    ["a 404", 404, {}, "http_error"],
    ["a final 3xx", 301, { "x-cache": "MISS" }, "redirect"],
    ["no-store", 200, { "x-cache": "MISS", "cache-control": "no-store", "set-cookie": "a=1" }, "no_store"],
    ["private", 200, { "x-cache": "MISS", "cache-control": "private, max-age=60" }, "no_store"],
    ["a cookie", 200, { "x-cache": "MISS", "set-cookie": "session=1", "cache-control": "max-age=0" }, "set_cookie"],
    ["no-cache", 200, { "x-cache": "MISS", "cache-control": "no-cache" }, "no_cache"],
    ["max-age=0", 200, { "x-cache": "MISS", "cache-control": "public, max-age=0" }, "no_cache"],
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
});
