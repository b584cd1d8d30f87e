import { and, count, eq, inArray, notInArray, sql } from "drizzle-orm";
import { sitemapDocuments, sitemaps, sitemapUrls, sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { plural } from "@/lib/core/format";
import { describeSourceError, isSourceError, isTransient } from "@/lib/sources";
import { MAX_URL_LENGTH } from "@/lib/sources/site-urls";
import { SourceFormatError } from "@/lib/sources/errors";
import { sendJob } from "@/lib/jobs";
import { type Crawl, crawl, MAX_URLS_PER_SITEMAP, type Resumed } from "./crawl";

/** Attempts of one processing (job retries and restarts after a crash together) before it ends in `error`. */
export const MAX_PROCESSING_ATTEMPTS = 6;
const DELETE_CHUNK = 2000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function summary(result: Crawl, domain: string): string {
  const parts = [`${plural(result.stored, "URL")} from ${plural(result.documents, "document")}`];
  for (const cut of result.cutOff.slice(0, 3)) {
    parts.push(`${cut.url === result.rootUrl ? "the document" : cut.url} was cut off after ${plural(cut.entries, cut.index ? "child sitemap" : "URL")}: what came before the cut was kept`);
  }
  if (result.failedChildren.length) {
    const first = result.failedChildren.slice(0, 3).map((f) => `${f.url} (${f.reason}${f.kept ? `; the ${plural(f.kept, "URL")} read before were kept` : ""})`);
    parts.push(
      `${plural(result.failedChildren.length, "child sitemap")} could not be read and ${result.failedChildren.length === 1 ? "was" : "were"} skipped: ${first.join(", ")}${result.failedChildren.length > 3 ? ", …" : ""}`,
    );
  }
  if (result.capped) parts.push(`stopped at the limit of ${MAX_URLS_PER_SITEMAP.toLocaleString("en")} URLs`);
  if (result.offDomain) parts.push(`${plural(result.offDomain, "URL")} outside ${domain} skipped`);
  if (result.invalid) parts.push(`${plural(result.invalid, "invalid URL")} skipped`);
  if (result.tooLong) parts.push(`${plural(result.tooLong, "URL")} longer than ${MAX_URL_LENGTH.toLocaleString("en")} characters skipped`);
  if (result.skippedChildren.length)
    parts.push(`${plural(result.skippedChildren.length, "child sitemap")} skipped (outside ${domain} or past the depth limit): ${result.skippedChildren.slice(0, 3).join(", ")}`);
  if (result.repeatedChildren) parts.push(`${plural(result.repeatedChildren, "repeated child sitemap")} ignored (cycle or duplicate)`);
  return `${parts.join("; ")}.`;
}

/** Removes the sitemap's rows of every generation but those in `keep`, a bounded number per statement. */
async function dropOtherGenerations(db: Database, sitemapId: number, keep: number[]): Promise<void> {
  for (;;) {
    const doomed = db
      .select({ id: sitemapUrls.id })
      .from(sitemapUrls)
      .where(and(eq(sitemapUrls.sitemapId, sitemapId), notInArray(sitemapUrls.generation, keep)))
      .limit(DELETE_CHUNK);
    const deleted = await db.delete(sitemapUrls).where(inArray(sitemapUrls.id, doomed)).returning({ id: sitemapUrls.id });
    if (deleted.length < DELETE_CHUNK) return;
    await yieldToEventLoop();
  }
}

/**
 * What an attempt that stopped half-way left on the generation it was writing: its rows and the
 * children it stored whole, read again only if they were not. Nothing when the last attempt ended.
 */
async function resumable(db: Database, sitemapId: number, generation: number, interrupted: boolean): Promise<Resumed | undefined> {
  if (!interrupted) {
    await db.delete(sitemapDocuments).where(eq(sitemapDocuments.sitemapId, sitemapId));
    return undefined;
  }
  const documents = await db
    .select()
    .from(sitemapDocuments)
    .where(and(eq(sitemapDocuments.sitemapId, sitemapId), eq(sitemapDocuments.generation, generation)));
  if (!documents.length) return undefined;
  const [rows] = await db
    .select({ stored: count() })
    .from(sitemapUrls)
    .where(and(eq(sitemapUrls.sitemapId, sitemapId), eq(sitemapUrls.generation, generation)));
  return { stored: rows?.stored ?? 0, documents: new Map(documents.map((d) => [d.url, d.tally])) };
}

/** What a failure says on the record; an error we did not expect keeps its own words (it is logged too). */
function failureMessage(error: unknown): string {
  const described = describeSourceError(error);
  if (!described.startsWith("Unexpected")) return described;
  console.error("[sitemaps] unexpected error", error);
  const detail = error instanceof Error ? error.message.replace(/\s+/g, " ").slice(0, 300) : String(error).slice(0, 300);
  return `The sitemap could not be processed: ${detail}`;
}

export type ProcessOutcome = { status: "done" | "error" | "retry"; message: string; changed?: boolean };

/** Whether generation `next` lists other URLs than generation `previous`. */
async function listChanged(db: Database, sitemapId: number, previous: number, next: number, previousCount: number, nextCount: number): Promise<boolean> {
  if (previousCount !== nextCount) return true;
  const [added] = await db
    .select({ id: sitemapUrls.id })
    .from(sitemapUrls)
    .where(
      and(
        eq(sitemapUrls.sitemapId, sitemapId),
        eq(sitemapUrls.generation, next),
        sql`not exists (select 1 from ${sitemapUrls} p where p.sitemap_id = ${sitemapId} and p.generation = ${previous} and p.url = ${sitemapUrls.url})`,
      ),
    )
    .limit(1);
  return Boolean(added);
}

/**
 * Downloads the sitemap (following index children) into a new generation of its URL rows, then
 * swaps it in: the boost runs planned meanwhile read the previous list whole. Idempotent: running
 * it again gives the same rows. A transient failure on a non-final attempt answers `retry` so the
 * job runner tries again; any failure on the last attempt, of whatever kind, ends in `error` with
 * its reason, so no sitemap is left `processing` for ever. With `conditional`, a sitemap read
 * before as a single document is asked for with its validators: a 304 keeps its list.
 */
export async function processSitemap(db: Database, sitemapId: number, attempt: { final: boolean; conditional?: boolean } = { final: true }): Promise<ProcessOutcome> {
  const outcome = await readSitemap(db, sitemapId, attempt);
  // Every read that ends (the job's, or one a run's planning makes) is news for the account's webhooks.
  // Its webhook event follows as a job of its own (lib/worker/jobs/sitemap-ended.ts).
  if (outcome.status !== "retry") await sendJob("sitemap.ended", { sitemapId });
  return outcome;
}

async function readSitemap(db: Database, sitemapId: number, attempt: { final: boolean; conditional?: boolean }): Promise<ProcessOutcome> {
  const [row] = await db.select({ sitemap: sitemaps, domain: sites.domain }).from(sitemaps).innerJoin(sites, eq(sites.id, sitemaps.siteId)).where(eq(sitemaps.id, sitemapId));
  if (!row) return { status: "done", message: "The sitemap was deleted." };
  const attempts = row.sitemap.processingAttempts + 1;
  const current = row.sitemap.urlsGeneration;
  const final = attempt.final || attempts >= MAX_PROCESSING_ATTEMPTS;
  // The validators belong to the current list (they change only with it).
  const since = attempt.conditional && (row.sitemap.etag || row.sitemap.lastModified) ? { etag: row.sitemap.etag, lastModified: row.sitemap.lastModified } : undefined;
  try {
    await db.update(sitemaps).set({ status: "processing", processingAttempts: attempts }).where(eq(sitemaps.id, sitemapId));
    // An attempt that stopped half-way (an error, a crash) is taken up where it was; otherwise the new list starts clean.
    const resumed = await resumable(db, sitemapId, current + 1, row.sitemap.processingAttempts > 0);
    await dropOtherGenerations(db, sitemapId, resumed ? [current, current + 1] : [current]);
    const result = await crawl(db, sitemapId, current + 1, row.sitemap.url, row.domain, since, resumed);
    const now = new Date();
    await db.delete(sitemapDocuments).where(eq(sitemapDocuments.sitemapId, sitemapId));
    if (result === "unchanged") {
      await db.update(sitemaps).set({ status: "done", lastProcessedAt: now, processingAttempts: 0 }).where(eq(sitemaps.id, sitemapId));
      return { status: "done", message: row.sitemap.statusMessage ?? "", changed: false };
    }
    if (result.failedChildren.length && result.documents === 1 && result.stored === 0) {
      // Only the index itself could be read: nothing to warm, and no reason to drop the last list.
      throw new SourceFormatError(
        `an index none of whose ${plural(result.failedChildren.length, "child sitemap")} could be read (${result.failedChildren[0]!.url}: ${result.failedChildren[0]!.reason})`,
      );
    }
    const message = summary(result, row.domain);
    const changed = row.sitemap.lastChangedAt === null || (await listChanged(db, sitemapId, current, current + 1, row.sitemap.urlCount, result.stored));
    const single = result.documents === 1;
    await db
      .update(sitemaps)
      .set({
        status: "done",
        statusMessage: message,
        urlCount: result.stored,
        urlsGeneration: current + 1,
        lastProcessedAt: now,
        ...(changed ? { lastChangedAt: now } : {}),
        etag: single ? (result.validators?.etag ?? null) : null,
        lastModified: single ? (result.validators?.lastModified ?? null) : null,
        processingAttempts: 0,
      })
      .where(eq(sitemaps.id, sitemapId));
    await dropOtherGenerations(db, sitemapId, [current + 1]);
    return { status: "done", message, changed };
  } catch (error) {
    const message = failureMessage(error);
    // A document that is not a sitemap, or an address that is refused, will not change on retry.
    const retry = !final && (isTransient(error) || !isSourceError(error));
    await db
      .update(sitemaps)
      .set(
        retry
          ? { status: "processing", statusMessage: `${message} Retrying.` }
          : {
              status: "error",
              statusMessage: attempts >= MAX_PROCESSING_ATTEMPTS && !attempt.final ? `${message} (gave up after ${attempts} attempts)` : message,
              lastProcessedAt: new Date(),
              processingAttempts: 0,
            },
      )
      .where(eq(sitemaps.id, sitemapId));
    return { status: retry ? "retry" : "error", message };
  }
}
