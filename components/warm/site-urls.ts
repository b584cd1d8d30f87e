import { parseSiteUrl } from "@/lib/sites/domain-name";

/** Every http(s) URL in pasted text or an uploaded file (one a line, or CSV cells), each once. */
export function extractUrls(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s,;"'<>]+/gi) ?? [];
  return [...new Set(found)];
}

/** The URLs a warm of the site takes, and how many it would refuse (another domain, credentials in them) with the first reason. */
export type SiteUrls = { urls: string[]; refused: { count: number; first: string | null } };

/**
 * Sorts found URLs, from several sources in order, into those a warm of the site takes (each once)
 * and those it would refuse; only the first are counted and sent, and the form says how many it left
 * out and why. It remembers each URL's verdict: after a paste of thousands, a keystroke checks only
 * the URL being typed, not the thousands again.
 */
export function siteUrlSorter(domain: string): (sources: readonly (readonly string[])[]) => SiteUrls {
  const verdicts = new Map<string, string | null>();
  return (sources) => {
    const urls: string[] = [];
    const seen = new Set<string>();
    let count = 0;
    let first: string | null = null;
    for (const found of sources) {
      for (const url of found) {
        if (seen.has(url)) continue;
        seen.add(url);
        let problem = verdicts.get(url);
        if (problem === undefined) {
          const parsed = parseSiteUrl(url, domain);
          problem = "url" in parsed ? null : parsed.problem;
          verdicts.set(url, problem);
        }
        if (problem === null) urls.push(url);
        else {
          count++;
          first ??= problem;
        }
      }
    }
    return { urls, refused: { count, first } };
  };
}
