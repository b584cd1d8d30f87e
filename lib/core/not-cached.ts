/**
 * Why a call did not end as a cache hit: the first reason that applies, in this order. The order
 * goes from what stops caching for certain to what only suggests it, so each call has one reason
 * and the owner fixes the first thing first. `blocked` comes before everything, a hit included: a
 * challenge page the CDN served from its cache is still not the page.
 */
export const NOT_CACHED_REASONS = [
  "blocked",
  "http_error",
  "redirect",
  "no_store",
  "private",
  "authorization",
  "status",
  "set_cookie",
  "no_cache",
  "stale_on_arrival",
  "vary",
  "cdn_bypass",
  "no_cache_detected",
  "miss",
] as const;
export type NotCachedReason = (typeof NOT_CACHED_REASONS)[number];

/** What each reason means and what the owner can do: one sentence each, shown on the run page, the report and the API reference. */
export const NOT_CACHED_ADVICE: Record<NotCachedReason, { title: string; advice: string }> = {
  blocked: {
    title: "Blocked by bot protection",
    advice:
      "A bot protection (Cloudflare, Akamai, Imperva, DataDome, Sucuri, AWS WAF, Vercel, HUMAN…) answered with a challenge or a block page instead of the page, so nothing was warmed for this user agent: let Preheat through (see /docs/site-owners/bot-protection).",
  },
  http_error: { title: "HTTP error", advice: "The page answered 400 or more, or did not answer at all: caches keep errors briefly if ever, so fix the page or take it out of the sitemap." },
  redirect: { title: "Redirect", advice: "The final answer was a redirect (more than 5 hops, or one without a target): list the page's final address in the sitemap instead." },
  no_store: {
    title: "no-store",
    advice: "The caching directives the CDN follows say no-store, which forbids any cache to keep the page: for pages that are the same for every visitor, send public with an s-maxage instead.",
  },
  private: {
    title: "private",
    advice: "The caching directives the CDN follows say private, which forbids shared caches to keep the page: for pages that are the same for every visitor, send public with an s-maxage instead.",
  },
  authorization: {
    title: "Sent with Authorization",
    advice:
      "The run sent an Authorization header, and a shared cache keeps the answer to such a request only when it says public, s-maxage or must-revalidate: add one of them, or warm the site without credentials.",
  },
  status: {
    title: "Status not cacheable",
    advice:
      "The page answered with a 2xx status that caches store only with an explicit lifetime (anything but 200, 203, 204 and 206, such as 201 or 202), and it gave none: answer 200, or give the page an s-maxage.",
  },
  set_cookie: { title: "Sets a cookie", advice: "The answer sets a cookie, and CDNs do not cache such answers by default: stop setting cookies on anonymous page views, or have the CDN strip them." },
  no_cache: {
    title: "Revalidated on every request",
    advice:
      "The CDN may keep the page but must ask the origin again before each reuse (no-cache, or a shared-cache lifetime of 0 from max-age=0, s-maxage=0 or an Expires not after Date, without stale-while-revalidate): drop no-cache and give the page a shared-cache lifetime above 0 with s-maxage.",
  },
  stale_on_arrival: {
    title: "Stale on arrival",
    advice:
      "The answer arrived already older than its shared-cache lifetime (its Age, or a Date far behind the clock, is past s-maxage, max-age or Expires), so the next visitor misses again: lengthen the lifetime, or check the clock and the cache in front of the origin that ages it.",
  },
  vary: {
    title: "Varies per visitor",
    advice: "Vary names *, Cookie or User-Agent, so each visitor gets a cache key of their own and warming one warms nobody else: vary on a normalised device class instead.",
  },
  cdn_bypass: { title: "CDN bypass", advice: "The CDN said it did not try to cache this answer (BYPASS, DYNAMIC, PASS): check its cache rules for this path, user agent or content type." },
  no_cache_detected: { title: "No cache detected", advice: "The answer carried no cache or CDN status header at all: the page may not be behind a CDN, or the CDN does not say what it did." },
  miss: { title: "Cacheable miss", advice: "The cache did not have the page and will keep it: this call warmed it, and the next visitor should get a hit." },
};
