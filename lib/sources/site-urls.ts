import { isOnDomain } from "@/lib/sites/domain-name";

/** The sitemaps protocol's limit, and what browsers, CDNs and Postgres's btree indexes all take. */
export const MAX_URL_LENGTH = 2048;

export type UrlTally = { urls: Map<string, Date | null>; invalid: number; offDomain: number; duplicates: number; tooLong: number };

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

/**
 * Adds a source's URL to the tally when it is valid, on the site's domain and not too long (the
 * others are counted by reason); a URL listed twice keeps its newest lastmod.
 */
export function tallyUrl(tally: UrlTally, value: string, lastmod: Date | null, domain: string): void {
  const result = siteUrl(value, domain);
  if ("skipped" in result) {
    tally[result.skipped]++;
    return;
  }
  const key = result.url;
  if (tally.urls.has(key)) {
    tally.duplicates++;
    const known = tally.urls.get(key);
    if (lastmod && (!known || lastmod > known)) tally.urls.set(key, lastmod);
    return;
  }
  tally.urls.set(key, lastmod);
}
