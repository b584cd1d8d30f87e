import { and, count, desc, eq, inArray } from "drizzle-orm";
import { sitemaps } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import type { AccountContext } from "@/lib/context";
import { isUniqueViolation } from "@/lib/db";
import { ConflictError, InvalidError, notFound } from "@/lib/core/errors";
import { sendJob } from "@/lib/jobs";
import { parseSiteUrl } from "@/lib/sites/domain-name";
import { getSite } from "@/lib/sites/service";
import { discoverSitemaps } from "./discover";
import { markForRefresh } from "./freshness";
import type { SitemapPayload } from "./schemas";

export type SitemapRow = typeof sitemaps.$inferSelect;

export function toSitemap(row: SitemapRow): SitemapPayload {
  return {
    id: row.id,
    site_id: row.siteId,
    url: row.url,
    status: row.status as SitemapPayload["status"],
    status_message: row.statusMessage,
    url_count: row.urlCount,
    last_processed_at: iso(row.lastProcessedAt),
    last_changed_at: iso(row.lastChangedAt),
    created_at: row.createdAt.toISOString(),
  };
}

/** Registers a sitemap in `waiting` and queues its processing. */
export async function addSitemap(ctx: AccountContext, siteId: number, input: { url?: string }): Promise<SitemapRow> {
  const site = await getSite(ctx, siteId);
  const parsed = parseSiteUrl(input.url ?? "", site.domain);
  if ("problem" in parsed) throw new InvalidError(`url: ${parsed.problem}.`, [{ field: "url", message: parsed.problem }]);
  const url = parsed.url.toString();
  let row: SitemapRow;
  try {
    [row] = (await ctx.db.insert(sitemaps).values({ siteId: site.id, url }).returning()) as [SitemapRow];
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`The sitemap ${url} is already registered for this site.`, undefined, "duplicate_sitemap");
    throw error;
  }
  await sendJob("sitemap.process", { sitemapId: row.id, siteId: site.id });
  return row;
}

export async function listSitemaps(ctx: AccountContext, siteId: number, page: Page) {
  await getSite(ctx, siteId);
  const where = eq(sitemaps.siteId, siteId);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(sitemaps).where(where).orderBy(desc(sitemaps.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(sitemaps).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** This site's sitemaps among `ids`; every id must be one of them. */
export async function requireSiteSitemaps(ctx: AccountContext, siteId: number, ids: number[]) {
  await getSite(ctx, siteId);
  const rows = await ctx.db.select({ id: sitemaps.id }).from(sitemaps).where(eq(sitemaps.siteId, siteId));
  const known = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw notFound(`Sitemap ${missing.join(", ")} of site ${siteId}`);
}

export async function deleteSitemap(ctx: AccountContext, siteId: number, sitemapId: number): Promise<void> {
  await getSite(ctx, siteId);
  const deleted = await ctx.db
    .delete(sitemaps)
    .where(and(eq(sitemaps.id, sitemapId), eq(sitemaps.siteId, siteId)))
    .returning({ id: sitemaps.id });
  if (!deleted.length) throw notFound("Sitemap");
}

export async function getSitemap(ctx: AccountContext, siteId: number, sitemapId: number): Promise<SitemapRow> {
  await getSite(ctx, siteId);
  const [row] = await ctx.db
    .select()
    .from(sitemaps)
    .where(and(eq(sitemaps.id, sitemapId), eq(sitemaps.siteId, siteId)));
  if (!row) throw notFound("Sitemap");
  return row;
}

/**
 * Queues the sitemap to be read again now (a conditional GET: an unchanged one costs a 304). One
 * already waiting or being read is left to that read. Answers the sitemap as it is now.
 */
export async function refreshSitemap(ctx: AccountContext, siteId: number, sitemapId: number): Promise<SitemapRow> {
  const row = await getSitemap(ctx, siteId, sitemapId);
  if (await markForRefresh(ctx.db, row.id)) await sendJob("sitemap.process", { sitemapId: row.id, siteId: row.siteId });
  return getSitemap(ctx, siteId, sitemapId);
}

/** Finds the site's sitemaps (lib/sitemaps/discover.ts) and adds each one found; those already registered are answered as they are. */
export async function discoverAndAddSitemaps(ctx: AccountContext, siteId: number): Promise<SitemapRow[]> {
  const site = await getSite(ctx, siteId);
  const found = await discoverSitemaps(site.domain);
  if ("problem" in found) throw new InvalidError(found.problem);
  const added = await ctx.db
    .insert(sitemaps)
    .values(found.urls.map((url) => ({ siteId: site.id, url })))
    .onConflictDoNothing()
    .returning();
  for (const row of added) await sendJob("sitemap.process", { sitemapId: row.id, siteId: site.id });
  const rows = await ctx.db
    .select()
    .from(sitemaps)
    .where(and(eq(sitemaps.siteId, site.id), inArray(sitemaps.url, found.urls)));
  return found.urls.map((url) => rows.find((row) => row.url === url)!).filter(Boolean);
}
