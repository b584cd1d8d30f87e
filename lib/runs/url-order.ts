import type { UrlOrder } from "@/lib/core/url-orders";
import { mostVisitedFirst } from "@/lib/popularity";
import type { UrlDetails } from "@/lib/sources/site-urls";

/** A URL as the boost's sitemaps list it now. */
export type ListedUrl = { url: string } & UrlDetails;

/** The sitemaps protocol's default for a URL without <priority>. */
const DEFAULT_PRIORITY = 0.5;

const byPriority = (a: ListedUrl, b: ListedUrl) => (b.priority ?? DEFAULT_PRIORITY) - (a.priority ?? DEFAULT_PRIORITY);

/** Newest first; a URL without lastmod comes after every one with it. */
const byLastmod = (a: ListedUrl, b: ListedUrl) => {
  if (a.lastmod === null || b.lastmod === null) return (a.lastmod === null ? 1 : 0) - (b.lastmod === null ? 1 : 0);
  return b.lastmod.getTime() - a.lastmod.getTime();
};

/**
 * The URLs in the order a run warms them; ties keep the sitemaps' order (the sort is stable).
 * `traffic`: most visited first by the site's popularity table (`visits`), the unvisited after them as listed.
 */
export function orderUrls(urls: ListedUrl[], order: UrlOrder, visits: ReadonlyMap<string, number>): ListedUrl[] {
  if (order === "sitemap") return urls;
  if (order === "traffic") return mostVisitedFirst(urls, (u) => u.url, visits);
  return [...urls].sort(order === "priority" ? byPriority : byLastmod);
}

/** What a boost's last done run found in its sitemaps: url → lastmod (ms since the epoch, null when none was given). */
export type Baseline = { runId: number; lastmods: Map<string, number | null> };

/** New since the baseline, or listed with another lastmod (a lastmod that appears or disappears counts as a change). */
function isChanged(url: ListedUrl, baseline: Baseline): boolean {
  const before = baseline.lastmods.get(url.url);
  if (before === undefined) return true;
  return before !== (url.lastmod?.getTime() ?? null);
}

/** The URLs `only_changed` keeps, and how many it left out. */
export function changedSince(urls: ListedUrl[], baseline: Baseline): { kept: ListedUrl[]; unchanged: number } {
  const kept = urls.filter((url) => isChanged(url, baseline));
  return { kept, unchanged: urls.length - kept.length };
}
