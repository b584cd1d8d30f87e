import type { FieldCacheVerdict } from "@/lib/core/traffic";
import { popLocation } from "@/lib/warm/pop-locations";

/**
 * What a page view's Server-Timing entries say about the cache that answered it, read on the server
 * (the beacon sends the entries' names and descriptions as the browser parsed them), so that the
 * script stays small and these rules are tested here. docs/guide/site-owners/beacon.md documents, per CDN, how to make
 * it send them; keep the two together.
 *
 * Only hit, miss or unknown is kept: the visitor either got the page from a cache or waited for the
 * origin. A response the cache would not store (Varnish's and Fastly's PASS, Cloudflare's BYPASS and
 * DYNAMIC, nginx's BYPASS) made the visitor wait for the origin, so it counts as a miss here; a copy
 * served stale or revalidated with a 304 did not, so it counts as a hit (as the run figures count them).
 */
export type ServerTimingEntry = { name: string; desc: string };
export type FieldReading = { verdict: FieldCacheVerdict; pop: string };

// The words CDNs and caches put in a description, shared by Akamai's `cdn-cache`, Cloudflare's
// `cfCacheStatus`, nginx's $upstream_cache_status and the VCL this project recommends.
const WORDS: Record<string, FieldCacheVerdict> = {
  HIT: "hit",
  STALE: "hit",
  UPDATING: "hit",
  REVALIDATED: "hit",
  // Akamai's Return Cache Status words, should an owner copy that header's value in.
  REFRESHHIT: "hit",
  HITSTALE: "hit",
  MISS: "miss",
  EXPIRED: "miss",
  BYPASS: "miss",
  PASS: "miss",
  DYNAMIC: "miss",
  NOTCACHEABLE: "miss",
};

/** Fastly's `fastly_info.state` (final in vcl_deliver): as its X-Cache counts them, HIT and every HIT-… state is a hit; MISS and PASS went to the origin. */
function fastlyState(state: string): FieldCacheVerdict {
  if (/^HIT(?!PASS)/.test(state)) return "hit";
  if (/^(MISS|PASS|HITPASS)/.test(state)) return "miss";
  return "unknown";
}

const word = (desc: string): FieldCacheVerdict => WORDS[desc.trim().toUpperCase()] ?? (desc.trim().toUpperCase().startsWith("HIT") ? "hit" : "unknown");

/**
 * The rules, nearest the visitor first: a CDN's own entry decides before an origin cache's (a site
 * may run Varnish behind CloudFront, both naming a verdict). Each reads the entries by name,
 * case-insensitively.
 */
const RULES: { name: RegExp; verdict: (desc: string, name: string) => FieldCacheVerdict }[] = [
  // CloudFront's Server-Timing option (response headers policy): the verdict is the entry's name.
  { name: /^cdn-cache-(hit|refresh|miss)$/, verdict: (_desc, name) => (name.endsWith("miss") ? "miss" : "hit") },
  // Akamai (mPulse, or its Server-Timing behaviour): `cdn-cache; desc=HIT`.
  { name: /^cdn-cache$/, verdict: word },
  // Cloudflare: `cfCacheStatus;desc="HIT"`.
  { name: /^cfcachestatus$/, verdict: word },
  // Fastly: the deliver snippet of docs/guide/site-owners/beacon.md, `fastly;desc=<fastly_info.state>`.
  { name: /^fastly$/, verdict: (desc) => fastlyState(desc.trim().toUpperCase()) },
  // An origin cache: Varnish or nginx as docs/guide/site-owners/beacon.md configures them, `cache;desc=HIT`.
  { name: /^(cache|x-cache|varnish|nginx)$/, verdict: word },
];

/** The country of the PoP an entry names (`cdn-pop;desc=CDG50-P1`, `pop;desc=cdg`), '' when none is named or its code is not one lib/warm/pop-locations knows. */
function popOf(entries: ServerTimingEntry[]): string {
  const named = entries.find((entry) => /^(cdn-pop|pop)$/i.test(entry.name.trim()));
  const code = named?.desc.trim().match(/^([a-z]{2,3}\d*)(?![a-z])/i)?.[1];
  if (!code) return "";
  return (popLocation(code) ?? popLocation(code.slice(0, 3)))?.country ?? "";
}

/** The verdict and the PoP's country that a page view's Server-Timing entries name. */
export function readServerTiming(entries: ServerTimingEntry[]): FieldReading {
  let verdict: FieldCacheVerdict = "unknown";
  for (const rule of RULES) {
    const entry = entries.find((e) => rule.name.test(e.name.trim().toLowerCase()));
    if (!entry) continue;
    verdict = rule.verdict(entry.desc, entry.name.trim().toLowerCase());
    if (verdict !== "unknown") break;
  }
  return { verdict, pop: popOf(entries) };
}
