import { and, eq, inArray, sql } from "drizzle-orm";
import { sitemaps } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { processSitemap } from "./process";

/** A sitemap in one of these states is not being read: it may be claimed for a new read. */
const SETTLED = ["done", "error"];

/**
 * A sitemap read longer ago than this (PREHEAT_SITEMAP_MAX_AGE_SECONDS, default 1 hour) is read
 * again before a run warms it; 0 reads it before every run.
 */
export function sitemapMaxAgeSeconds(): number {
  return setting("PREHEAT_SITEMAP_MAX_AGE_SECONDS");
}

/**
 * Reads again, with a conditional GET, each of these sitemaps last read more than `maxAgeSeconds`
 * ago (the operator's maximum age unless told), so that a run warms what they list now. One that
 * cannot be read keeps its last good list; the answer says which, for the run's message. A sitemap
 * being read by another job is left to it.
 */
export async function refreshStaleSitemaps(db: Database, ids: number[], maxAgeSeconds = sitemapMaxAgeSeconds()): Promise<string[]> {
  if (!ids.length) return [];
  const stale = await db
    .update(sitemaps)
    .set({ status: "processing" })
    .where(
      and(inArray(sitemaps.id, ids), inArray(sitemaps.status, SETTLED), sql`(${sitemaps.lastProcessedAt} is null or ${sitemaps.lastProcessedAt} < now() - make_interval(secs => ${maxAgeSeconds}))`),
    )
    .returning({ id: sitemaps.id, url: sitemaps.url, lastChangedAt: sitemaps.lastChangedAt });
  const notes: string[] = [];
  for (const sitemap of stale) {
    const outcome = await processSitemap(db, sitemap.id, { final: true, conditional: true });
    if (outcome.status !== "done") {
      const since = sitemap.lastChangedAt ? ` (listed as of ${sitemap.lastChangedAt.toISOString()})` : "";
      notes.push(`the sitemap ${sitemap.url} could not be read again (${outcome.message.replace(/\.$/, "")}), so its last good list${since} is warmed`);
    }
  }
  return notes;
}

/** Marks a sitemap to be read again (by its job); one already waiting or being read is left as it is. */
export async function markForRefresh(db: Database, sitemapId: number): Promise<boolean> {
  const marked = await db
    .update(sitemaps)
    .set({ status: "waiting" })
    .where(and(eq(sitemaps.id, sitemapId), inArray(sitemaps.status, SETTLED)))
    .returning({ id: sitemaps.id });
  return marked.length > 0;
}
