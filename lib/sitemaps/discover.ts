import { describeSourceError, fetchXmlSource, isSourceError } from "@/lib/sources";
import { parseSiteUrl } from "@/lib/sites/domain-name";

/** Where a site's sitemaps usually are when its robots.txt names none. */
const USUAL_PATHS = ["/sitemap.xml", "/sitemap_index.xml"];

export type Discovery = { urls: string[] } | { problem: string };

/**
 * Finds a site's sitemaps as crawlers do, HTTPS first, then HTTP (as validation does): the
 * `Sitemap:` lines of its robots.txt (those on the site's domain), else the first of
 * /sitemap.xml and /sitemap_index.xml that is a sitemap. Answers where it looked when nothing is found.
 */
export async function discoverSitemaps(domain: string): Promise<Discovery> {
  const looked: string[] = [];
  const attempt = async (url: string) => {
    try {
      return await fetchXmlSource(url);
    } catch (error) {
      if (!isSourceError(error)) throw error;
      looked.push(`${url} (${describeSourceError(error).replace(/\.$/, "")})`);
      return undefined;
    }
  };
  for (const scheme of ["https", "http"] as const) {
    const origin = `${scheme}://${domain}`;
    const robots = await attempt(`${origin}/robots.txt`);
    if (robots?.kind === "robots") {
      const urls = robots.entries.map((entry) => parseSiteUrl(entry.loc, domain)).flatMap((parsed) => ("url" in parsed ? [parsed.url.toString()] : []));
      if (urls.length) return { urls: [...new Set(urls)] };
      looked.push(`${origin}/robots.txt (its Sitemap: lines name no sitemap on ${domain})`);
    } else if (robots) {
      looked.push(`${origin}/robots.txt (not a robots.txt with Sitemap: lines)`);
    }
    for (const path of USUAL_PATHS) {
      const source = await attempt(`${origin}${path}`);
      if (source && source.kind !== "robots") return { urls: [`${origin}${path}`] };
      if (source) looked.push(`${origin}${path} (a robots.txt, not a sitemap)`);
    }
  }
  return { problem: `No sitemap was found on ${domain}. Looked at: ${looked.join("; ")}.` };
}
