/**
 * The detectors of caches each named by one vendor header: StackPath, Imperva, Google Cloud CDN,
 * Alibaba Cloud CDN and Tencent Cloud CDN. lib/warm/cache-status.ts places them in its table;
 * docs/guide/site-owners/cache-detection.md gives each its vendor's documentation.
 */
import { type CacheVerdict, type Detector, lastEntry, lookup } from "./cache-headers";

/**
 * StackPath's X-HW lists its hops as `<time>.<node>.<pop>.<code>`, the edge first and the hop that
 * fetched last: StackPath documents that a list ending in `.p` was pulled from the origin. One that
 * ends elsewhere ended at one of its caches, without the origin.
 */
export const stackpath: Detector = {
  cdn: "stackpath",
  detect: (h) => {
    const raw = h.get("x-hw");
    if (raw === null || !lastEntry(raw)) return null;
    const code = lastEntry(raw).split(".").pop()?.toLowerCase();
    // Its PoP codes (`da2`, `fr8`) are StackPath's own, not airports: none is placed.
    return { verdict: code === "p" ? "miss" : "hit", pop: null, raw };
  },
};

/**
 * Imperva's X-IInfo (`10-12345-0 0CNN RT(…) q(…) r(…)`): the second letter of its four-letter flag group
 * says whether the cache answered: `C` from the cache, `V` from the cache once the origin validated it,
 * any other letter fetched from the origin.
 */
const IMPERVA_FLAG: Record<string, CacheVerdict> = { C: "hit", V: "revalidated" };

export const imperva: Detector = {
  cdn: "imperva",
  detect: (h) => {
    const raw = h.get("x-iinfo");
    if (raw === null) return null;
    const flags = lastEntry(raw)
      .split(/\s+/)
      .slice(1)
      .find((token) => /^[0-9A-Z]{4}$/i.test(token));
    if (!flags) return { verdict: "unknown", pop: null, raw };
    return { verdict: lookup(IMPERVA_FLAG, flags[1]!.toUpperCase(), "miss"), pop: null, raw };
  },
};

/**
 * Google Cloud CDN writes no verdict of its own: the load balancer adds `Via: 1.1 google`, and the
 * `{cdn_cache_status}` variable fills a custom response header the site names. Its values, lower case
 * as Google writes them, are read from any header whose name says `cache`.
 */
const GOOGLE_STATUS: Record<string, CacheVerdict> = {
  hit: "hit",
  miss: "miss",
  revalidated: "revalidated",
  stale: "stale",
  // Cloud CDN would not store it, or is not enabled on the backend: no cache was tried.
  uncacheable: "bypass",
  disabled: "bypass",
};

export const google: Detector = {
  cdn: "google",
  detect: (h) => {
    if (!/\bgoogle\b/i.test(h.get("via") ?? "")) return null;
    for (const [name, value] of h.entries()) {
      if (name.includes("cache") && Object.hasOwn(GOOGLE_STATUS, value.trim())) return { verdict: GOOGLE_STATUS[value.trim()]!, pop: null, raw: value };
    }
    // Without the site's header Google said nothing: the caches behind it, or Age, may still say something.
    return null;
  },
};

/** Alibaba Cloud CDN's X-Cache: `HIT TCP_MEM_HIT dirn:…` or `MISS TCP_MISS dirn:…`. */
function alibabaVerdict(entry: string): CacheVerdict | undefined {
  // The code after the word is Alibaba's mark: a bare HIT or MISS was written by another cache.
  const match = entry.match(/^(HIT|MISS)\s+(TCP_\w+)/i);
  if (!match) return undefined;
  // The stored copy was stale and the origin answered 304 (its Via then marks the hop `304-0`).
  if (match[2]!.toUpperCase() === "TCP_REFRESH_HIT") return "revalidated";
  return match[1]!.toUpperCase() === "HIT" ? "hit" : "miss";
}

export const alibaba: Detector = {
  cdn: "alibaba",
  detect: (h) => {
    if (h.get("eagleid") === null && !h.hasPrefix("ali-swift-")) return null;
    const raw = h.get("x-cache");
    if (raw === null) return { verdict: "unknown", pop: null, raw };
    const verdict = alibabaVerdict(lastEntry(raw));
    // An X-Cache of another shape was written by a cache in front of Alibaba's.
    return verdict ? { verdict, pop: null, raw } : null;
  },
};

/** Tencent Cloud CDN's X-Cache-Lookup: these values are a hit, and any other (`Cache Miss`, …) is not. */
const TENCENT_HITS: Record<string, CacheVerdict> = {
  "hit from memcache": "hit",
  "hit from disktank": "hit",
  "cache hit": "hit",
  // From the parent tier: still no trip to the origin.
  "hit from upstream": "hit",
};

export const tencent: Detector = {
  cdn: "tencent",
  detect: (h) => {
    if (h.get("x-nws-log-uuid") === null) return null;
    const raw = h.get("x-cache-lookup");
    if (raw === null) return { verdict: "unknown", pop: null, raw };
    return { verdict: lookup(TENCENT_HITS, lastEntry(raw).toLowerCase(), "miss"), pop: null, raw };
  },
};
