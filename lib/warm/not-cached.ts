import type { BlockVendor } from "./blocked";
import { type CacheReading, isCacheHit } from "./cache-status";
import type { NotCachedReason } from "@/lib/core/not-cached";
import type { FreshnessReading } from "./freshness";

type RawHeaders = Record<string, string | string[] | undefined>;

/** Every value of a header, repeated headers included, lower-cased. */
function headerValue(headers: RawHeaders, name: string): string {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return (Array.isArray(value) ? value.join(", ") : String(value)).toLowerCase();
  }
  return "";
}

/** The answer of a call, as far as the reason needs it: null when none came (a network error, a timeout). */
export type CallAnswer = { status: number; headers: RawHeaders } | null;

/**
 * The call's reason for not being a cache hit, or null when it was one (as `cache_hits` counts it,
 * so every call is either a hit or has a reason). `freshness`: the answer as a shared cache reads it
 * (lib/warm/freshness.ts), null without an answer. `blockedBy`: the bot protection that answered
 * instead of the site (lib/warm/blocked.ts).
 */
export function whyNotCached(answer: CallAnswer, cache: CacheReading | null, freshness: FreshnessReading | null, blockedBy: BlockVendor | null = null): NotCachedReason | null {
  if (blockedBy) return "blocked";
  if (answer && cache && isCacheHit(cache)) return null;
  if (!answer || answer.status >= 400) return "http_error";
  if (answer.status >= 300 && answer.status < 400) return "redirect";
  if (freshness?.notStorableBecause) return freshness.notStorableBecause;
  if (headerValue(answer.headers, "set-cookie")) return "set_cookie";
  if (freshness?.revalidatesEveryRequest) return "no_cache";
  if (freshness?.staleOnArrival) return "stale_on_arrival";
  const vary = headerValue(answer.headers, "vary")
    .split(",")
    .map((v) => v.trim());
  if (vary.some((v) => v === "*" || v === "cookie" || v === "user-agent")) return "vary";
  if (cache?.verdict === "bypass" || cache?.verdict === "dynamic") return "cdn_bypass";
  if (!cache || (cache.cdn === null && cache.raw === null)) return "no_cache_detected";
  return "miss";
}
