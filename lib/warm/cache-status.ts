/**
 * Reads a CDN's cache verdict and point of presence from response headers. One table of detectors,
 * tried in order: CDN edges first (nearest the client), origin caches (nginx, Varnish) after, then
 * RFC 9211 Cache-Status, then Age.
 */
export type CacheVerdict = "hit" | "miss" | "bypass" | "dynamic" | "expired" | "stale" | "revalidated" | "unknown";
export type CacheReading = { cdn: string | null; verdict: CacheVerdict; pop: string | null; raw: string | null };
type Headers = Record<string, string | string[] | undefined>;

/** Send as `Pragma` so that Akamai reports its cache status in x-cache. */
export const PRAGMA_AKAMAI = "akamai-x-cache-on";

function header(headers: Headers, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

const lastEntry = (value: string) => value.split(",").map((v) => v.trim()).filter(Boolean).pop() ?? "";

const WORDS: Record<string, CacheVerdict> = {
  HIT: "hit", MISS: "miss", EXPIRED: "expired", STALE: "stale", UPDATING: "stale", REVALIDATED: "revalidated",
  BYPASS: "bypass", DYNAMIC: "dynamic", PRERENDER: "hit", NONE: "unknown", UNKNOWN: "unknown",
};
const word = (value: string | null): CacheVerdict => WORDS[(value ?? "").trim().toUpperCase()] ?? "unknown";
const iata = (value: string | null | undefined) => {
  const code = value?.match(/[A-Za-z]{3}/)?.[0];
  return code ? code.toUpperCase() : null;
};

type Detector = { cdn: string; detect: (h: Headers) => Omit<CacheReading, "cdn"> | undefined };

const DETECTORS: Detector[] = [
  {
    cdn: "cloudflare",
    detect: (h) => {
      const raw = header(h, "cf-cache-status");
      if (!raw) return undefined;
      return { verdict: word(raw), pop: iata(header(h, "cf-ray")?.split("-").pop()), raw };
    },
  },
  {
    cdn: "cloudfront",
    detect: (h) => {
      const raw = header(h, "x-cache");
      if (!raw || !/cloudfront/i.test(raw) && !header(h, "x-amz-cf-pop")) return undefined;
      const status = raw.trim().split(/\s+/)[0]!.toLowerCase();
      const verdict: CacheVerdict = status === "hit" ? "hit" : status === "refreshhit" ? "revalidated" : status === "miss" ? "miss" : "unknown";
      return { verdict, pop: iata(header(h, "x-amz-cf-pop")), raw };
    },
  },
  {
    cdn: "akamai",
    detect: (h) => {
      const raw = header(h, "x-cache");
      if (!raw || !/^TCP_/i.test(raw.trim())) return undefined;
      const code = raw.trim().split(/\s+/)[0]!.toUpperCase();
      let verdict: CacheVerdict = "unknown";
      if (code === "TCP_REFRESH_HIT") verdict = "revalidated";
      else if (code.endsWith("_HIT")) verdict = "hit";
      else if (code.endsWith("_MISS")) verdict = "miss";
      else if (code === "TCP_DENIED") verdict = "bypass";
      return { verdict, pop: null, raw };
    },
  },
  {
    cdn: "fastly",
    detect: (h) => {
      const servedBy = header(h, "x-served-by");
      const raw = header(h, "x-cache");
      if (!raw || !servedBy?.includes("cache-")) return undefined;
      // Shielding lists shield first, edge last: the edge nearest the client decides.
      return { verdict: word(lastEntry(raw)), pop: iata(lastEntry(servedBy).split("-").pop()), raw };
    },
  },
  {
    cdn: "vercel",
    detect: (h) => {
      const raw = header(h, "x-vercel-cache");
      if (!raw) return undefined;
      return { verdict: word(raw), pop: iata(header(h, "x-vercel-id")?.split("::")[0]), raw };
    },
  },
  {
    cdn: "bunny",
    detect: (h) => {
      const raw = header(h, "cdn-cache");
      if (!raw) return undefined;
      const pop = header(h, "server")?.match(/^BunnyCDN-([A-Za-z0-9]+)/i)?.[1]?.toUpperCase() ?? null;
      return { verdict: word(raw), pop, raw };
    },
  },
  {
    cdn: "netlify",
    detect: (h) => {
      const raw = header(h, "cache-status");
      if (!raw || !/netlify/i.test(raw)) return undefined;
      return { verdict: rfc9211(raw), pop: null, raw };
    },
  },
  {
    cdn: "nginx",
    detect: (h) => {
      const raw = header(h, "x-cache-status");
      return raw ? { verdict: word(raw), pop: null, raw } : undefined;
    },
  },
  {
    cdn: "varnish",
    detect: (h) => {
      const raw = header(h, "x-varnish");
      if (!raw) return undefined;
      // Two transaction ids: this request and the one that stored the object, i.e. a hit.
      const ids = raw.trim().split(/\s+/).filter((id) => /^\d+$/.test(id));
      return { verdict: ids.length >= 2 ? "hit" : "miss", pop: null, raw };
    },
  },
  {
    cdn: "cache-status",
    detect: (h) => {
      const raw = header(h, "cache-status");
      return raw ? { verdict: rfc9211(raw), pop: null, raw } : undefined;
    },
  },
];

/** RFC 9211: caches are listed from the origin to the client; the last one answered the client. */
function rfc9211(value: string): CacheVerdict {
  const params = lastEntry(value).split(";").slice(1).map((p) => p.trim().toLowerCase());
  if (params.includes("hit")) return "hit";
  const fwd = params.find((p) => p.startsWith("fwd="))?.slice(4).replace(/"/g, "");
  if (fwd === "stale") return "stale";
  if (fwd === "bypass") return "bypass";
  if (fwd) return "miss";
  return "unknown";
}

export function readCacheStatus(headers: Headers): CacheReading {
  for (const { cdn, detect } of DETECTORS) {
    try {
      const reading = detect(headers);
      if (reading) return { cdn, ...reading };
    } catch {
      // An odd header never fails a call: try the next detector.
    }
  }
  const age = Number(header(headers, "age"));
  return { cdn: null, verdict: age > 0 ? "hit" : "unknown", pop: null, raw: header(headers, "age") };
}

export function isCacheHit(reading: CacheReading): boolean {
  return reading.verdict === "hit" || reading.verdict === "stale" || reading.verdict === "revalidated";
}
