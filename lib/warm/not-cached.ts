import type { BlockVendor } from "./blocked";
import { type CacheReading, isCacheHit } from "./cache-status";

/**
 * Why a call did not end as a cache hit: the first reason that applies, in this order. The order
 * goes from what stops caching for certain to what only suggests it, so each call has one reason
 * and the owner fixes the first thing first. `blocked` comes before everything, a hit included: a
 * challenge page the CDN served from its cache is still not the page.
 */
export const NOT_CACHED_REASONS = ["blocked", "http_error", "redirect", "no_store", "set_cookie", "no_cache", "vary", "cdn_bypass", "no_cache_detected", "miss"] as const;
export type NotCachedReason = (typeof NOT_CACHED_REASONS)[number];

/** What each reason means and what the owner can do: one sentence each, shown on the run page, the report and the API reference. */
export const NOT_CACHED_ADVICE: Record<NotCachedReason, { title: string; advice: string }> = {
  blocked: {
    title: "Blocked by bot protection",
    advice:
      "A bot protection (Cloudflare, Akamai, Imperva, DataDome, Sucuri, AWS WAF, Vercel, HUMAN…) answered with a challenge or a block page instead of the page, so nothing was warmed for this user agent: let Preheat through (see /docs/allow-listing).",
  },
  http_error: { title: "HTTP error", advice: "The page answered 400 or more, or did not answer at all: caches keep errors briefly if ever, so fix the page or take it out of the sitemap." },
  redirect: { title: "Redirect", advice: "The final answer was a redirect (more than 5 hops, or one without a target): list the page's final address in the sitemap instead." },
  no_store: {
    title: "no-store or private",
    advice: "Cache-Control says no-store or private, which forbids shared caches to keep the page: send public with an s-maxage for pages that are the same for every visitor.",
  },
  set_cookie: { title: "Sets a cookie", advice: "The answer sets a cookie, and CDNs do not cache such answers by default: stop setting cookies on anonymous page views, or have the CDN strip them." },
  no_cache: {
    title: "no-cache or max-age=0",
    advice: "Cache-Control says no-cache, max-age=0 or s-maxage=0, so every request goes back to the origin: give the page a shared-cache lifetime (s-maxage).",
  },
  vary: {
    title: "Varies per visitor",
    advice: "Vary names *, Cookie or User-Agent, so each visitor gets a cache key of their own and warming one warms nobody else: vary on a normalised device class instead.",
  },
  cdn_bypass: { title: "CDN bypass", advice: "The CDN said it did not try to cache this answer (BYPASS, DYNAMIC, PASS): check its cache rules for this path, user agent or content type." },
  no_cache_detected: { title: "No cache detected", advice: "The answer carried no cache or CDN status header at all: the page may not be behind a CDN, or the CDN does not say what it did." },
  miss: { title: "Cacheable miss", advice: "The cache did not have the page and will keep it: this call warmed it, and the next visitor should get a hit." },
};

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
