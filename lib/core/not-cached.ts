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
