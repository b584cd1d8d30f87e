/**
 * Reads a CDN's cache verdict and point of presence (PoP) from the response headers of a warming call.
 *
 * One table of detectors, tried in order, first match wins. A response can carry the headers of
 * several caches (a CDN in front of an nginx or Varnish origin cache, a CDN behind another CDN); the
 * cache that answered us is the one nearest the client, so CDN edges come before origin caches.
 *
 * Lists follow one rule throughout: a hop that adds to a header appends, so the LAST entry of a list
 * (or of repeated headers, joined with ", ") is the cache nearest the client, and it decides. The one
 * exception names its tiers instead: Akamai-Cache-Status puts the child (the edge) first.
 *
 * docs/guide/site-owners/cache-detection.md documents the table; keep the two together.
 */
import { type CacheVerdict, type Detector, HeaderMap, lastEntry, lookup, positiveAge, type RawHeaders, splitOutsideQuotes, unquote } from "./cache-headers";
import { alibaba, google, imperva, stackpath, tencent } from "./cache-vendors";
export type { CacheVerdict };
export type CacheReading = { cdn: string | null; verdict: CacheVerdict; pop: string | null; raw: string | null };

/** Send as `Pragma`: Akamai only reports x-cache when asked to. */
export const PRAGMA_AKAMAI = "akamai-x-cache-on";

// The one-word vocabulary shared by cf-cache-status, x-vercel-cache, cdn-cache, x-cache-status and Fastly's x-cache.
const WORDS: Record<string, CacheVerdict> = {
  HIT: "hit",
  MISS: "miss",
  EXPIRED: "expired",
  STALE: "stale",
  // Cloudflare and nginx say UPDATING while they serve the stale copy and refresh it behind.
  UPDATING: "stale",
  REVALIDATED: "revalidated",
  BYPASS: "bypass",
  // Varnish and Fastly's word for a response they never cache.
  PASS: "bypass",
  DYNAMIC: "dynamic",
  // Vercel serves a prerendered page from its cache on the first request after a deploy.
  PRERENDER: "hit",
};
const word = (value: string): CacheVerdict => lookup(WORDS, lastEntry(value).toUpperCase());

/** An IATA-style code at the start of a PoP name: `CDG50-P1`, `cdg1`, `CDG`. */
function iata(value: string | null | undefined): string | null {
  const code = value?.trim().match(/^([a-z]{3})(?![a-z])/i)?.[1];
  return code ? code.toUpperCase() : null;
}

/** RFC 9211: `hit` means served from this cache; `fwd` says why the request went on to the next hop. */
function rfc9211Verdict(entry: string): CacheVerdict {
  const params = new Map<string, string>();
  for (const param of splitOutsideQuotes(entry, ";").slice(1)) {
    const [key = "", ...value] = param.split("=");
    params.set(key.trim().toLowerCase(), value.length ? unquote(value.join("=")).toLowerCase() : "?1");
  }
  const fwd = params.get("fwd");
  // fwd first: a forwarded request was not served from here, whatever else the entry says (`hit; fwd=uri-miss` is a miss).
  if (fwd !== undefined) {
    if (fwd === "bypass" || fwd === "method") return "bypass";
    // The stored copy was stale and went to be validated: a 304 kept it, anything else replaced it.
    if (fwd === "stale") return params.get("fwd-status") === "304" ? "revalidated" : "stale";
    // miss, uri-miss, vary-miss, request, partial, and any later reason: forwarded means not served from here.
    return "miss";
  }
  if (params.get("hit") === "?1") {
    // A negative ttl is the RFC's way of saying the stored response was already stale.
    return Number(params.get("ttl")) < 0 ? "stale" : "hit";
  }
  return "unknown";
}

const rfc9211CacheName = (entry: string): string => unquote(splitOutsideQuotes(entry, ";")[0] ?? "");

// Cloudflare's words on top of the shared ones. It documents NONE and UNKNOWN as "not eligible for caching":
// a Worker built the response, or a redirect rule or a WAF block answered before the cache was consulted.
const CLOUDFLARE: Record<string, CacheVerdict> = { ...WORDS, NONE: "bypass", UNKNOWN: "bypass" };

/** cf-ray reads `<ray id>-<IATA>`: the PoP is the suffix of the last ray (the Cloudflare edge nearest the client). */
function cfRayPop(ray: string | null): string | null {
  const suffix = ray === null ? undefined : lastEntry(ray).match(/-([a-z]{3})$/i)?.[1];
  return suffix ? suffix.toUpperCase() : null;
}

const CLOUDFRONT: Record<string, CacheVerdict> = {
  hit: "hit",
  miss: "miss",
  // CloudFront had the object, asked the origin, and was told it had not changed.
  refreshhit: "revalidated",
  // Built at the edge by a function, never stored.
  lambdageneratedresponse: "dynamic",
  functiongeneratedresponse: "dynamic",
  // A redirect CloudFront made itself (HTTP to HTTPS): no cache was consulted.
  redirect: "dynamic",
  // An error page, a request over the rate limit, or an edge out of capacity: the status code decides the reason.
  error: "unknown",
  limitexceeded: "unknown",
  capacityexceeded: "unknown",
};

// Azure Front Door's x-cache. Its codes look like Akamai's, hence its own detector ahead of Akamai's.
const AZURE: Record<string, CacheVerdict> = {
  TCP_HIT: "hit",
  // Served by the regional cache (the origin shield) rather than the edge: still no trip to the origin.
  TCP_REMOTE_HIT: "hit",
  TCP_MISS: "miss",
  // Cache-Control private or no-store, caching turned off for the route, or a response Front Door will not store.
  PRIVATE_NOSTORE: "bypass",
  CONFIG_NOCACHE: "bypass",
  UNCACHEABLE: "bypass",
  // Denied by a signed URL or a rule set: the status code decides the reason.
  "N/A": "unknown",
};

const AKAMAI: Record<string, CacheVerdict> = {
  TCP_HIT: "hit",
  TCP_MEM_HIT: "hit",
  TCP_IMS_HIT: "hit",
  TCP_NEGATIVE_HIT: "hit",
  TCP_REFRESH_HIT: "revalidated",
  // The origin could not be reached to refresh, so the stale copy was served.
  TCP_REFRESH_FAIL_HIT: "stale",
  TCP_MISS: "miss",
  // The stored copy had changed at the origin: the client waited for the origin.
  TCP_REFRESH_MISS: "miss",
  TCP_CLIENT_REFRESH_MISS: "miss",
  // The edge refused the request (an access rule, a failed cookie authorisation) before any cache lookup:
  // warming again will not fill anything, so this is not a miss.
  TCP_DENIED: "bypass",
  TCP_COOKIE_DENY: "bypass",
};

/** Akamai's x-cache code; the codes it adds over time keep its naming, so any other `TCP_…_MISS` went to the origin. */
function akamaiCode(code: string): CacheVerdict {
  const upper = code.toUpperCase();
  if (Object.hasOwn(AKAMAI, upper)) return AKAMAI[upper]!;
  return /_MISS$/.test(upper) ? "miss" : "unknown";
}

// Akamai-Cache-Status, written by the Return Cache Status behavior: `{status} from child[, {status} from parent]`.
const AKAMAI_STATUS: Record<string, CacheVerdict> = {
  hit: "hit",
  miss: "miss",
  // Stale in cache, and the origin answered the If-Modified-Since with a 304.
  refreshhit: "revalidated",
  // Stale in cache and the origin had nothing newer (or could not be reached): the stale copy was served.
  hitstale: "stale",
  // The property marks the object as not cacheable: every request goes to the origin.
  notcacheable: "bypass",
  // Built or redirected by the edge configuration itself: nothing was looked up in the cache.
  constructed: "dynamic",
  redirect: "dynamic",
  // Authorisation denied, a WAF block: the status code decides the reason.
  error: "unknown",
};

/** The child's status decides: it is the edge the client talked to; the parent only tells what the child fetched. */
function akamaiStatusVerdict(value: string): CacheVerdict {
  const tiers = splitOutsideQuotes(value, ",");
  const child = tiers.find((tier) => /\bfrom\s+child\b/i.test(tier)) ?? tiers[0] ?? "";
  return lookup(AKAMAI_STATUS, (child.split(/\s+/)[0] ?? "").toLowerCase());
}

const DETECTORS: Detector[] = [
  // Cloudflare first: it is most often the outermost layer, in front of Vercel, Netlify or an origin cache.
  {
    cdn: "cloudflare",
    detect: (h) => {
      const raw = h.get("cf-cache-status");
      if (raw === null) return null;
      return { verdict: lookup(CLOUDFLARE, lastEntry(raw).toUpperCase()), pop: cfRayPop(h.get("cf-ray")), raw };
    },
  },
  // Imperva (Incapsula) is a site's outermost layer as Cloudflare is; its X-IInfo passes through nobody's cache but its own.
  imperva,
  // x-cache is shared by CloudFront, Front Door, Akamai and Fastly: whoever wrote its last entry answered the client.
  {
    cdn: "cloudfront",
    detect: (h) => {
      const raw = h.get("x-cache");
      const pop = iata(h.get("x-amz-cf-pop"));
      const status = raw === null ? null : lastEntry(raw).match(/^(\S+)\s+from\s+cloudfront$/i)?.[1];
      if (status) return { verdict: lookup(CLOUDFRONT, status.toLowerCase()), pop, raw };
      // Without x-cache the PoP header still names CloudFront; with someone else's x-cache it came from behind them.
      return raw === null && h.get("x-amz-cf-pop") !== null ? { verdict: "unknown", pop, raw } : null;
    },
  },
  // Before Akamai: Front Door's x-cache codes (TCP_HIT, TCP_MISS) are Akamai's too, and x-azure-ref tells them apart.
  {
    cdn: "azure",
    detect: (h) => {
      if (h.get("x-azure-ref") === null && h.get("x-fd-int-roxy-purgeid") === null) return null;
      const raw = h.get("x-cache");
      // Front Door gives no PoP in its headers (x-azure-ref is an opaque reference).
      if (raw === null) return { verdict: "unknown", pop: null, raw };
      // The bare code, nothing after it: `TCP_HIT from a23-…` is an Akamai edge in front of Front Door.
      const code = lastEntry(raw).toUpperCase();
      // Front Door writes x-cache itself: a value it does not use was written by a cache in front of it.
      return Object.hasOwn(AZURE, code) ? { verdict: AZURE[code]!, pop: null, raw } : null;
    },
  },
  // Named by their own headers (EagleId, X-NWS-LOG-UUID), before the bare x-cache row that would read Alibaba's
  // `HIT TCP_MEM_HIT` by its first word without naming it.
  alibaba,
  tencent,
  {
    cdn: "akamai",
    detect: (h) => {
      const raw = h.get("x-cache");
      // The parent tier reports in x-cache-remote, so x-cache is the edge the client talked to.
      const code = raw === null ? null : lastEntry(raw).match(/^TCP_[A-Z_]+/i)?.[0];
      // The edge's host name is an IP address, not a location: Akamai gives no PoP anywhere.
      if (code) return { verdict: akamaiCode(code), pop: null, raw };
      // Without our Pragma honoured there is no x-cache from Akamai: Akamai-Cache-Status is its own verdict,
      // and it beats an x-cache that Akamai passed through from the origin.
      const status = h.get("akamai-cache-status");
      if (status !== null) return { verdict: akamaiStatusVerdict(status), pop: null, raw: status };
      // The server name alone (Akamai's own responses, NetStorage) names Akamai without a verdict; with someone
      // else's x-cache, as for CloudFront's PoP header, the response came from behind them.
      return raw === null && /^Akamai(?:GHost|NetStorage)\b/i.test(h.get("server") ?? "") ? { verdict: "unknown", pop: null, raw } : null;
    },
  },
  {
    cdn: "fastly",
    detect: (h) => {
      const servedBy = h.get("x-served-by");
      const fastlyCache = servedBy !== null && splitOutsideQuotes(servedBy, ",").some((node) => /^cache-/i.test(node));
      const varnishWithNode = servedBy !== null && /varnish/i.test(h.get("via") ?? "");
      // X-Timer (`S<start>,VS0,VE<ms>`) is proprietary to Fastly and written on every response.
      const timer = /^S\d+(\.\d+)?,VS\d+/.test(h.get("x-timer")?.trim() ?? "");
      if (!fastlyCache && !varnishWithNode && !timer && !h.hasPrefix("fastly-")) return null;
      const raw = h.get("x-cache");
      // With shielding both lists run shield first, edge last (`HIT, MISS`: the shield had it, the edge did not).
      const node = servedBy === null ? null : lastEntry(servedBy).split("-").pop();
      return { verdict: raw === null ? "unknown" : word(raw), pop: iata(node), raw };
    },
  },
  {
    cdn: "vercel",
    detect: (h) => {
      const raw = h.get("x-vercel-cache");
      if (raw === null) return null;
      // x-vercel-id reads edge::function-region::request-id; the edge region comes first.
      return { verdict: word(raw), pop: iata(h.get("x-vercel-id")?.split("::")[0]), raw };
    },
  },
  {
    cdn: "netlify",
    detect: (h) => {
      const raw = h.get("cache-status");
      // Netlify lists "Netlify Durable" then "Netlify Edge"; it only answered if its entry is the last one.
      if (raw === null || !/^netlify/i.test(rfc9211CacheName(lastEntry(raw)))) return null;
      return { verdict: rfc9211Verdict(lastEntry(raw)), pop: null, raw };
    },
  },
  {
    cdn: "bunny",
    detect: (h) => {
      const raw = h.get("cdn-cache");
      const server = h.get("server");
      if (raw === null && !/^BunnyCDN-/i.test(server ?? "")) return null;
      // Bunny names its PoPs by region (`DE1`), not by airport; cdn-requestcountrycode is the visitor's country.
      const pop = server?.match(/^BunnyCDN-([a-z0-9]+)(?:-|$)/i)?.[1]?.toUpperCase() ?? null;
      return { verdict: raw === null ? "unknown" : word(raw), pop, raw };
    },
  },
  stackpath,
  // Before the RFC 9211 and nginx rows: the header the site names for Cloud CDN's verdict may be Cache-Status or X-Cache-Status.
  google,
  // Before nginx and Varnish: Cache-Status is built for chains, so its last entry is nearest the client
  // by definition, whereas x-cache-status and x-varnish are usually an origin's own cache.
  {
    cdn: "cache-status",
    detect: (h) => {
      const raw = h.get("cache-status");
      if (raw === null) return null;
      const entry = lastEntry(raw);
      return { verdict: rfc9211Verdict(entry), pop: null, raw, cdn: rfc9211CacheName(entry) || undefined };
    },
  },
  {
    cdn: "nginx",
    detect: (h) => {
      const raw = h.get("x-cache-status");
      return raw === null ? null : { verdict: word(raw), pop: null, raw };
    },
  },
  {
    cdn: "varnish",
    detect: (h) => {
      const xVarnish = h.get("x-varnish");
      const via = h.get("via");
      if (xVarnish === null && !/varnish/i.test(via ?? "")) return null;
      // A hit carries two transaction ids: this request's and the one that stored the object.
      const ids = xVarnish === null ? [] : lastEntry(xVarnish).split(/\s+/);
      if (ids.every((id) => /^\d+$/.test(id)) && (ids.length === 1 || ids.length === 2)) {
        return { verdict: ids.length === 2 ? "hit" : "miss", pop: null, raw: xVarnish };
      }
      // No usable ids: a stored age is the only sign that this Varnish answered from cache.
      return { verdict: positiveAge(h) ? "hit" : "unknown", pop: null, raw: xVarnish ?? via };
    },
  },
  // cf-ray without cf-cache-status: Cloudflare answered without consulting its cache (a Worker, a redirect rule, a
  // WAF block), which it documents as not eligible for caching. Late in the table because the ray carries no verdict:
  // a cache behind Cloudflare that gives one (Vercel, Netlify, nginx, Varnish) is the cache that actually answered.
  // Still before a bare x-cache, which names no cache at all.
  {
    cdn: "cloudflare",
    detect: (h) => {
      const ray = h.get("cf-ray");
      if (ray === null || !lastEntry(ray)) return null;
      return { verdict: "bypass", pop: cfRayPop(ray), raw: ray };
    },
  },
  // Last: any other cache reporting in x-cache (a bare `HIT`, `MISS`, Squid's `HIT from proxy`): its first word decides.
  {
    cdn: "x-cache",
    detect: (h) => {
      const raw = h.get("x-cache");
      if (raw === null) return null;
      return { verdict: lookup(WORDS, (lastEntry(raw).split(/\s+/)[0] ?? "").toUpperCase()), pop: null, raw };
    },
  },
];

export function readCacheStatus(headers: RawHeaders): CacheReading {
  let h: HeaderMap;
  try {
    h = new HeaderMap(headers);
  } catch {
    return { cdn: null, verdict: "unknown", pop: null, raw: null };
  }
  for (const detector of DETECTORS) {
    try {
      const found = detector.detect(h);
      if (found) return { cdn: found.cdn ?? detector.cdn, verdict: found.verdict, pop: found.pop, raw: found.raw };
    } catch {
      // A header we did not foresee never fails a warming call: the next detector may still read it.
    }
  }
  // No cache named itself, but a stored age means some cache answered.
  return { cdn: null, verdict: positiveAge(h) ? "hit" : "unknown", pop: null, raw: h.get("age") };
}

/** Whether the client was answered from cache: a stale copy and a revalidated one were, without a full origin fetch. */
export function isCacheHit(reading: CacheReading): boolean {
  return reading.verdict === "hit" || reading.verdict === "stale" || reading.verdict === "revalidated";
}
