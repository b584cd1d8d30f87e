import { version } from "@/package.json";
import { publicBaseUrl } from "@/lib/config/base-url";

/**
 * How Preheat names itself when it reads a site's documents (ownership checks, sitemaps, feeds,
 * robots.txt, CSV files): `PreheatBot/<version> (+<base url>/bot)`, the page saying what it does
 * and how to allow or block it. Warming calls do not use it: they speak as the browsers they warm for.
 */
export function botUserAgent(): string {
  return `PreheatBot/${version} (+${publicBaseUrl()}/bot)`;
}
