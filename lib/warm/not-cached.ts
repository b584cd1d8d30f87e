import type { BlockVendor } from "./blocked";
import { type CacheReading, isCacheHit } from "./cache-status";
import type { NotCachedReason } from "@/lib/core/not-cached";

type RawHeaders = Record<string, string | string[] | undefined>;

/** Every value of a header, repeated headers included, lower-cased. */
function headerValue(headers: RawHeaders, name: string): string {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return (Array.isArray(value) ? value.join(", ") : String(value)).toLowerCase();
  }
  return "";
}

function directives(value: string): Map<string, string | true> {
  const found = new Map<string, string | true>();
  for (const part of value.split(",")) {
    const [name, argument] = part.split("=", 2).map((s) => s.trim().replace(/^"|"$/g, ""));
    if (name) found.set(name, argument === undefined ? true : argument);
  }
  return found;
}

/** The answer of a call, as far as the reason needs it: null when none came (a network error, a timeout). */
export type CallAnswer = { status: number; headers: RawHeaders } | null;

/**
 * The call's reason for not being a cache hit, or null when it was one (as `cache_hits` counts it,
 * so every call is either a hit or has a reason). `blockedBy`: the bot protection that answered
 * instead of the site (lib/warm/blocked.ts).
 */
export function whyNotCached(answer: CallAnswer, cache: CacheReading | null, blockedBy: BlockVendor | null = null): NotCachedReason | null {
  if (blockedBy) return "blocked";
  if (answer && cache && isCacheHit(cache)) return null;
  if (!answer || answer.status >= 400) return "http_error";
  if (answer.status >= 300 && answer.status < 400) return "redirect";
  const control = directives(headerValue(answer.headers, "cache-control"));
  if (control.has("no-store") || control.has("private")) return "no_store";
  if (headerValue(answer.headers, "set-cookie")) return "set_cookie";
  if (control.has("no-cache") || control.get("max-age") === "0" || control.get("s-maxage") === "0") return "no_cache";
  const vary = headerValue(answer.headers, "vary")
    .split(",")
    .map((v) => v.trim());
  if (vary.some((v) => v === "*" || v === "cookie" || v === "user-agent")) return "vary";
  if (cache?.verdict === "bypass" || cache?.verdict === "dynamic") return "cdn_bypass";
  if (!cache || (cache.cdn === null && cache.raw === null)) return "no_cache_detected";
  return "miss";
}
