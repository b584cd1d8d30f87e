import { isOnDomain } from "@/lib/sites/domain-name";

/** The sitemaps protocol's limit, and what browsers, CDNs and Postgres's btree indexes all take. */
export const MAX_URL_LENGTH = 2048;

/** What a source says of a URL besides its address: its `<lastmod>` and `<priority>` when it gives them. */
export type UrlDetails = { lastmod: Date | null; priority: number | null };

export type UrlTally = { urls: Map<string, UrlDetails>; invalid: number; offDomain: number; duplicates: number; tooLong: number };

export function emptyTally(): UrlTally {
  return { urls: new Map(), invalid: 0, offDomain: 0, duplicates: 0, tooLong: 0 };
}

/** Normalises a URL as the service stores it: absolute http(s), lower-case host, no fragment. */
export function normaliseUrl(value: string, base?: string): URL | undefined {
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    if (url.username || url.password) return undefined;
    url.hash = "";
    return url;
  } catch {
    return undefined;
  }
}

/** A source's URL as stored (normalised, on the site's domain, at most MAX_URL_LENGTH characters), or why it is skipped. */
function siteUrl(value: string, domain: string): { url: string } | { skipped: "invalid" | "offDomain" | "tooLong" } {
  // Percent-encoding can only lengthen a URL: a value far over the limit is not even parsed.
  if (value.length > 4 * MAX_URL_LENGTH) return { skipped: "tooLong" };
  const url = normaliseUrl(value);
  if (!url) return { skipped: "invalid" };
  if (!isOnDomain(url, domain)) return { skipped: "offDomain" };
  const text = url.toString();
  return text.length > MAX_URL_LENGTH ? { skipped: "tooLong" } : { url: text };
}

const NO_DETAILS: UrlDetails = { lastmod: null, priority: null };

/** A URL listed twice (in one source or in several) keeps its newest lastmod and its highest priority. */
export function mergedDetails(known: UrlDetails, other: UrlDetails): UrlDetails {
  return {
    lastmod: other.lastmod && (!known.lastmod || other.lastmod > known.lastmod) ? other.lastmod : known.lastmod,
    priority: other.priority !== null && (known.priority === null || other.priority > known.priority) ? other.priority : known.priority,
  };
}

/** Adds a source's URL to the tally when it is valid, on the site's domain and not too long (the others are counted by reason). */
export function tallyUrl(tally: UrlTally, value: string, domain: string, details: UrlDetails = NO_DETAILS): void {
  const result = siteUrl(value, domain);
  if ("skipped" in result) {
    tally[result.skipped]++;
    return;
  }
  const known = tally.urls.get(result.url);
  if (known) tally.duplicates++;
  tally.urls.set(result.url, known ? mergedDetails(known, details) : details);
}
