import { eq } from "drizzle-orm";
import { sitemaps, sitemapUrls, sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { isOnDomain } from "@/lib/sites/domain-name";
import { describeSourceError, fetchXmlSource, isTransient } from "@/lib/sources";
import { emptyTally, normaliseUrl, tallyUrl, type UrlTally } from "@/lib/sources/site-urls";
import { plural } from "@/lib/format";

/** Index nesting and fan-out limits: a sitemap index may list indexes, but not forever. */
export const MAX_INDEX_DEPTH = 3;
export const MAX_SITEMAPS_PER_ROOT = 500;
export const MAX_URLS_PER_SITEMAP = 1_000_000;
const INSERT_CHUNK = 1000;

type Crawl = UrlTally & { documents: number; skippedChildren: string[]; repeatedChildren: number };

async function crawl(rootUrl: string, domain: string): Promise<Crawl> {
  const state: Crawl = { ...emptyTally(), documents: 0, skippedChildren: [], repeatedChildren: 0 };
  const seen = new Set<string>([rootUrl]);
  let level = [rootUrl];
  for (let depth = 0; level.length; depth++) {
    const next: string[] = [];
    for (const url of level) {
      const source = await fetchXmlSource(url);
      state.documents++;
      if (source.kind !== "sitemapindex") {
        for (const entry of source.entries) {
          if (state.urls.size >= MAX_URLS_PER_SITEMAP) break;
          tallyUrl(state, entry.loc, entry.lastmod, domain);
        }
        continue;
      }
      for (const entry of source.entries) {
        const child = normaliseUrl(entry.loc, url);
        if (!child || !isOnDomain(child, domain)) {
          state.skippedChildren.push(entry.loc);
        } else if (seen.has(child.toString())) {
          state.repeatedChildren++; // a cycle, or the same child listed twice
        } else if (depth + 1 > MAX_INDEX_DEPTH || seen.size >= MAX_SITEMAPS_PER_ROOT) {
          state.skippedChildren.push(entry.loc);
        } else {
          seen.add(child.toString());
          next.push(child.toString());
        }
      }
    }
    level = next;
  }
  return state;
}


function summary(result: Crawl, domain: string): string {
  const parts = [`${plural(result.urls.size, "URL")} from ${plural(result.documents, "document")}`];
  if (result.offDomain) parts.push(`${plural(result.offDomain, "URL")} outside ${domain} skipped`);
  if (result.invalid) parts.push(`${plural(result.invalid, "invalid URL")} skipped`);
  if (result.skippedChildren.length) parts.push(`${plural(result.skippedChildren.length, "child sitemap")} skipped (outside ${domain} or past the depth limit): ${result.skippedChildren.slice(0, 3).join(", ")}`);
  if (result.repeatedChildren) parts.push(`${plural(result.repeatedChildren, "repeated child sitemap")} ignored (cycle or duplicate)`);
  return `${parts.join("; ")}.`;
}

export type ProcessOutcome = { status: "done" | "error" | "retry"; message: string };

/**
 * Downloads the sitemap (following index children), replaces its stored URL set and records the
 * outcome. Idempotent: running it again gives the same rows. A transient failure on a non-final
 * attempt answers `retry` so the job runner tries again; the record shows the reason meanwhile.
 */
export async function processSitemap(db: Database, sitemapId: number, attempt: { final: boolean } = { final: true }): Promise<ProcessOutcome> {
  const [row] = await db
    .select({ sitemap: sitemaps, domain: sites.domain })
    .from(sitemaps)
    .innerJoin(sites, eq(sites.id, sitemaps.siteId))
    .where(eq(sitemaps.id, sitemapId));
  if (!row) return { status: "done", message: "The sitemap was deleted." };
  await db.update(sitemaps).set({ status: "processing", statusMessage: null }).where(eq(sitemaps.id, sitemapId));
  let result: Crawl;
  try {
    result = await crawl(row.sitemap.url, row.domain);
  } catch (error) {
    const message = describeSourceError(error);
    const retry = isTransient(error) && !attempt.final;
    if (message.startsWith("Unexpected")) console.error("[sitemaps] unexpected error", error);
    await db
      .update(sitemaps)
      .set(retry ? { status: "processing", statusMessage: `${message} Retrying.` } : { status: "error", statusMessage: message, lastProcessedAt: new Date() })
      .where(eq(sitemaps.id, sitemapId));
    return { status: retry ? "retry" : "error", message };
  }
  const message = summary(result, row.domain);
  const entries = [...result.urls];
  await db.transaction(async (tx) => {
    await tx.delete(sitemapUrls).where(eq(sitemapUrls.sitemapId, sitemapId));
    for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
      await tx.insert(sitemapUrls).values(entries.slice(i, i + INSERT_CHUNK).map(([url, lastmod]) => ({ sitemapId, url, lastmod })));
    }
    await tx
      .update(sitemaps)
      .set({ status: "done", statusMessage: message, urlCount: entries.length, lastProcessedAt: new Date() })
      .where(eq(sitemaps.id, sitemapId));
  });
  return { status: "done", message };
}
