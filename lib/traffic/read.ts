import { and, eq, sql } from "drizzle-orm";
import { changeReceivers, sitemaps, sitemapUrls, sites, trafficSources } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import { ConflictError, InvalidError } from "@/lib/core/errors";
import type { TrafficReadCounts } from "@/lib/core/traffic";
import type { Database } from "@/lib/db";
import { FetchError, guardedRequest } from "@/lib/fetch";
import { decryptSecret, SecretsError } from "@/lib/secrets";
import { AnalyticsError, readGa4, readPlausible } from "./analytics";
import { AccessLogError, type AccessLogRead, readAccessLog } from "./logs";
import { getTrafficSourceRow, TRAFFIC_SECRET_PURPOSE, type TrafficSourceRow, toTrafficSource } from "./sources";
import { noteReadFailed, storeAnalyticsVisits, storeLogVisits } from "./store";

/** The log's URL answered something else than its bytes. */
class LogUnavailableError extends Error {}

/** A fetched log may take this long, body included: a large log over a slow link. */
const LOG_FETCH_TIMEOUT_MS = 15 * 60_000;

/**
 * The paths whose query string a visit keeps: those the site's sitemaps list with one, and those its
 * change receivers' URL templates give one. Elsewhere a query is a tracking tag or a filter the
 * cache may not even key on, and the visit counts for the bare path.
 */
async function pathsKeepingQuery(db: Database, siteId: number): Promise<Set<string>> {
  const [listed, templates] = await Promise.all([
    db
      .selectDistinct({ url: sitemapUrls.url })
      .from(sitemapUrls)
      .innerJoin(sitemaps, and(eq(sitemaps.id, sitemapUrls.sitemapId), eq(sitemapUrls.generation, sitemaps.urlsGeneration)))
      .where(and(eq(sitemaps.siteId, siteId), sql`strpos(${sitemapUrls.url}, '?') > 0`))
      .limit(100_000),
    db.select({ templates: changeReceivers.urlTemplates }).from(changeReceivers).where(eq(changeReceivers.siteId, siteId)),
  ]);
  const paths = new Set<string>();
  for (const { url } of listed) {
    try {
      paths.add(new URL(url).pathname);
    } catch {
      // A stored URL always parses; one that does not keeps no query.
    }
  }
  for (const { templates: byKey } of templates) {
    for (const template of Object.values(byKey).flat()) {
      const query = template.indexOf("?");
      if (query > 0) paths.add(template.slice(0, query));
    }
  }
  return paths;
}

async function logOptions(db: Database, siteId: number) {
  const [[site], keep] = await Promise.all([db.select({ domain: sites.domain }).from(sites).where(eq(sites.id, siteId)), pathsKeepingQuery(db, siteId)]);
  return { domain: site!.domain, keepsQuery: (path: string) => keep.has(path) };
}

/** The sentence a read's counts end with when lines were left out as broken, or paths were dropped. */
function logMessage(counts: TrafficReadCounts): string | null {
  const parts: string[] = [];
  if (counts.broken) parts.push(`${counts.broken.toLocaleString("en")} of ${counts.lines.toLocaleString("en")} lines could not be read and were skipped`);
  if (counts.truncated) parts.push("the log held more distinct paths than a read keeps: the least visited were dropped");
  return parts.length ? `${parts.join("; ")}.`.replace(/^./, (c) => c.toUpperCase()) : null;
}

/** A log's read stored on its source; the caller says what a log nothing could be read from means. */
function storeLog(db: Database, source: TrafficSourceRow, read: AccessLogRead): Promise<TrafficSourceRow> {
  return storeLogVisits(db, source, read.visits, read.counts, logMessage(read.counts));
}

async function readLogFromUrl(db: Database, source: TrafficSourceRow): Promise<void> {
  const response = await guardedRequest(source.settings.url!, { timeoutMs: LOG_FETCH_TIMEOUT_MS, maxBytes: setting("PREHEAT_TRAFFIC_UPLOAD_MAX_BYTES") });
  if (response.status < 200 || response.status >= 300) {
    response.body.destroy();
    throw new LogUnavailableError(`The log could not be fetched: ${response.url} answered ${response.status}.`);
  }
  await storeLog(db, source, await readAccessLog(response.body, await logOptions(db, source.siteId)));
}

async function readAnalytics(db: Database, source: TrafficSourceRow): Promise<void> {
  const secret = decryptSecret(source.secret!, TRAFFIC_SECRET_PURPOSE);
  const read =
    source.kind === "plausible" ? await readPlausible({ siteId: source.settings.site_id!, apiKey: secret }) : await readGa4({ propertyId: source.settings.property_id!, serviceAccountKey: secret });
  let counted = 0;
  for (const visits of read.visits.values()) counted += visits;
  const counts: TrafficReadCounts = { lines: read.rows, counted, broken: 0, paths: read.visits.size, skipped: { method: 0, status: 0, host: 0, asset: 0, bot: 0 } };
  await storeAnalyticsVisits(db, source, read.visits, counts);
}

/** Why a read failed, as its source says it. */
function failureOf(error: unknown): string | undefined {
  if (error instanceof AnalyticsError) return error.message;
  if (error instanceof AccessLogError || error instanceof LogUnavailableError) return error.message;
  if (error instanceof FetchError) return `The log could not be fetched: ${error.message}.`;
  if (error instanceof SecretsError) return `The source's key cannot be opened: ${error.message}. Delete the source and add it again with its key.`;
  return undefined;
}

/**
 * Reads a source Preheat fetches (the `traffic.read` job): its log's URL or its analytics API. All or
 * nothing: a failure stores no visit, keeps those of the read before, and says why on the source.
 * Anything else (the database) is thrown for the job to retry.
 */
export async function readTrafficSource(db: Database, sourceId: number): Promise<{ status: "ok" | "failed" | "gone" }> {
  const [source] = await db.select().from(trafficSources).where(eq(trafficSources.id, sourceId));
  if (!source) return { status: "gone" };
  try {
    if (source.kind === "access_log") {
      if (!source.settings.url) return { status: "gone" };
      await readLogFromUrl(db, source);
    } else {
      await readAnalytics(db, source);
    }
    return { status: "ok" };
  } catch (error) {
    const why = failureOf(error);
    if (why === undefined) {
      await noteReadFailed(db, source.id, "The read failed unexpectedly; it is tried again at the next scheduled read.");
      throw error;
    }
    await noteReadFailed(db, source.id, why);
    return { status: "failed" };
  }
}

/**
 * Reads an uploaded access log as it streams in (never held whole), and stores its visits. 422
 * `unreadable_log` when not one line could be read, storing nothing; 413 past the size limit.
 */
export async function uploadAccessLog(ctx: AccountContext, siteId: number, sourceId: number, body: AsyncIterable<Uint8Array>) {
  const source = await getTrafficSourceRow(ctx, siteId, sourceId);
  if (source.kind !== "access_log")
    throw new ConflictError(`This source reads ${source.kind === "ga4" ? "Google Analytics 4" : "Plausible"}, not a log: nothing to upload.`, undefined, "not_an_access_log");
  let read: AccessLogRead;
  try {
    read = await readAccessLog(body, await logOptions(ctx.db, source.siteId));
  } catch (error) {
    if (error instanceof AccessLogError) throw new InvalidError(`The log could not be read: ${error.message}`, undefined, "unreadable_log");
    throw error;
  }
  return toTrafficSource(await storeLog(ctx.db, source, read));
}
