import { isOnDomain } from "@/lib/sites/domain-name";

export type UrlTally = { urls: Map<string, Date | null>; invalid: number; offDomain: number; duplicates: number };

export function emptyTally(): UrlTally {
  return { urls: new Map(), invalid: 0, offDomain: 0, duplicates: 0 };
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

/** Adds a source's URL to the tally when it is valid and on the site's domain. */
export function tallyUrl(tally: UrlTally, value: string, lastmod: Date | null, domain: string): void {
  const url = normaliseUrl(value);
  if (!url) {
    tally.invalid++;
    return;
  }
  if (!isOnDomain(url, domain)) {
    tally.offDomain++;
    return;
  }
  const key = url.toString();
  if (tally.urls.has(key)) {
    tally.duplicates++;
    const known = tally.urls.get(key);
    if (lastmod && (!known || lastmod > known)) tally.urls.set(key, lastmod);
    return;
  }
  tally.urls.set(key, lastmod);
}
