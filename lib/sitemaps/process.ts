import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { sitemaps, sitemapUrls, sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { plural } from "@/lib/format";
import { isOnDomain } from "@/lib/sites/domain-name";
import { describeSourceError, fetchXmlSource, fetchXmlSourceIfChanged, isSourceError, isTransient, type Validators } from "@/lib/sources";
import { emptyTally, MAX_URL_LENGTH, normaliseUrl, tallyUrl } from "@/lib/sources/site-urls";
import { SourceFormatError, type UrlEntry } from "@/lib/sources/xml-urls";

/** Index nesting and fan-out limits: a sitemap index may list indexes, but not forever. */
export const MAX_INDEX_DEPTH = 3;
export const MAX_SITEMAPS_PER_ROOT = 500;
export const MAX_URLS_PER_SITEMAP = 1_000_000;
/** Attempts of one processing (job retries and restarts after a crash together) before it ends in `error`. */
export const MAX_PROCESSING_ATTEMPTS = 6;
/**
 * Rows per statement. On the embedded database every statement holds the one connection, and the
 * API's queries wait behind it: small statements with the event loop free between them keep the
 * API answering while a million URLs are stored.
 */
const INSERT_CHUNK = 500;
const DELETE_CHUNK = 2000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

type Crawl = { rootUrl: string; cutOff: { url: string; entries: number; index: boolean }[]; failedChildren: { url: string; reason: string }[]; validators: Validators | null; capped: boolean; stored: number; invalid: number; offDomain: number; duplicates: number; tooLong: number; documents: number; skippedChildren: string[]; repeatedChildren: number };

/** Stores one chunk of a document's URLs in `generation`; answers how many were new to it. */
async function storeChunk(db: Database, sitemapId: number, generation: number, chunk: Map<string, Date | null>): Promise<number> {
  if (!chunk.size) return 0;
  const rows = await db
    .insert(sitemapUrls)
    .values([...chunk].map(([url, lastmod]) => ({ sitemapId, generation, url, lastmod })))
    .onConflictDoUpdate({
      target: [sitemapUrls.sitemapId, sitemapUrls.generation, sitemapUrls.url],
      // A URL listed in two documents keeps its newest lastmod.
      set: { lastmod: sql`greatest(${sitemapUrls.lastmod}, excluded.lastmod)` },
    })
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return rows.filter((row) => row.inserted).length;
}

/** Stores a document's URLs chunk by chunk, each skipped one counted by its reason. */
async function storeEntries(db: Database, sitemapId: number, generation: number, entries: UrlEntry[], domain: string, state: Crawl): Promise<void> {
  for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
    if (state.stored >= MAX_URLS_PER_SITEMAP) {
      state.capped = true;
      return;
    }
    const tally = emptyTally();
    for (const entry of entries.slice(i, i + INSERT_CHUNK)) tallyUrl(tally, entry.loc, entry.lastmod, domain);
    state.invalid += tally.invalid;
    state.offDomain += tally.offDomain;
    state.tooLong += tally.tooLong;
    state.duplicates += tally.duplicates;
    const chunk = tally.urls;
    const room = MAX_URLS_PER_SITEMAP - state.stored;
    if (chunk.size > room) state.capped = true;
    const limited = chunk.size > room ? new Map([...chunk].slice(0, room)) : chunk;
    const inserted = await storeChunk(db, sitemapId, generation, limited);
    state.stored += inserted;
    state.duplicates += limited.size - inserted;
    await yieldToEventLoop();
  }
}

/** Reads the sitemap and its index children breadth first, storing URLs as each document is read. */
async function crawl(db: Database, sitemapId: number, generation: number, rootUrl: string, domain: string, since?: Validators): Promise<Crawl | "unchanged"> {
  const state: Crawl = { rootUrl, cutOff: [], failedChildren: [], validators: null, capped: false, stored: 0, invalid: 0, offDomain: 0, duplicates: 0, tooLong: 0, documents: 0, skippedChildren: [], repeatedChildren: 0 };
  const seen = new Set<string>([rootUrl]);
  let level = [rootUrl];
  for (let depth = 0; level.length; depth++) {
    const next: string[] = [];
    for (const url of level) {
      let source;
      if (url === rootUrl) {
        const read = await fetchXmlSourceIfChanged(url, since);
        if (!read) return "unchanged";
        source = read.source;
        state.validators = read.validators;
      } else {
        // A child that cannot be read is skipped: the others' URLs are worth having.
        try {
          source = await fetchChild(url);
        } catch (error) {
          if (!isSourceError(error)) throw error;
          state.failedChildren.push({ url, reason: describeSourceError(error).replace(/\.$/, "") });
          continue;
        }
      }
      state.documents++;
      if (source.truncated) state.cutOff.push({ url, entries: source.entries.length, index: source.kind === "sitemapindex" });
      // A robots.txt's Sitemap: lines are followed as an index's children.
      if (source.kind !== "sitemapindex" && source.kind !== "robots") {
        await storeEntries(db, sitemapId, generation, source.entries, domain, state);
        continue;
      }
      for (const entry of source.entries) {
        const child = normaliseUrl(entry.loc, url);
        if (!child || !isOnDomain(child, domain) || child.toString().length > MAX_URL_LENGTH) {
          state.skippedChildren.push(entry.loc.slice(0, 200));
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

/** Transient failures of a child (5xx, 429, timeouts, broken transfers) are retried this often, this far apart, before it is skipped. */
const CHILD_ATTEMPTS = 3;
const CHILD_RETRY_MS = 500;

async function fetchChild(url: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchXmlSource(url);
    } catch (error) {
      if (attempt >= CHILD_ATTEMPTS || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, CHILD_RETRY_MS * attempt));
    }
  }
}

function summary(result: Crawl, domain: string): string {
  const parts = [`${plural(result.stored, "URL")} from ${plural(result.documents, "document")}`];
  for (const cut of result.cutOff.slice(0, 3)) {
    parts.push(`${cut.url === result.rootUrl ? "the document" : cut.url} was cut off after ${plural(cut.entries, cut.index ? "child sitemap" : "URL")}: what came before the cut was kept`);
  }
  if (result.failedChildren.length) {
    const first = result.failedChildren.slice(0, 3).map((f) => `${f.url} (${f.reason})`);
    parts.push(`${plural(result.failedChildren.length, "child sitemap")} could not be read and ${result.failedChildren.length === 1 ? "was" : "were"} skipped: ${first.join(", ")}${result.failedChildren.length > 3 ? ", …" : ""}`);
  }
  if (result.capped) parts.push(`stopped at the limit of ${MAX_URLS_PER_SITEMAP.toLocaleString("en")} URLs`);
  if (result.offDomain) parts.push(`${plural(result.offDomain, "URL")} outside ${domain} skipped`);
  if (result.invalid) parts.push(`${plural(result.invalid, "invalid URL")} skipped`);
  if (result.tooLong) parts.push(`${plural(result.tooLong, "URL")} longer than ${MAX_URL_LENGTH.toLocaleString("en")} characters skipped`);
  if (result.skippedChildren.length) parts.push(`${plural(result.skippedChildren.length, "child sitemap")} skipped (outside ${domain} or past the depth limit): ${result.skippedChildren.slice(0, 3).join(", ")}`);
  if (result.repeatedChildren) parts.push(`${plural(result.repeatedChildren, "repeated child sitemap")} ignored (cycle or duplicate)`);
  return `${parts.join("; ")}.`;
}

/** Removes the sitemap's rows of every generation but `keep`, a bounded number per statement. */
async function dropOtherGenerations(db: Database, sitemapId: number, keep: number): Promise<void> {
  for (;;) {
    const doomed = db
      .select({ id: sitemapUrls.id })
      .from(sitemapUrls)
      .where(and(eq(sitemapUrls.sitemapId, sitemapId), ne(sitemapUrls.generation, keep)))
      .limit(DELETE_CHUNK);
    const deleted = await db.delete(sitemapUrls).where(inArray(sitemapUrls.id, doomed)).returning({ id: sitemapUrls.id });
    if (deleted.length < DELETE_CHUNK) return;
    await yieldToEventLoop();
  }
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
  const [row] = await db
    .select({ sitemap: sitemaps, domain: sites.domain })
    .from(sitemaps)
    .innerJoin(sites, eq(sites.id, sitemaps.siteId))
    .where(eq(sitemaps.id, sitemapId));
  if (!row) return { status: "done", message: "The sitemap was deleted." };
  const attempts = row.sitemap.processingAttempts + 1;
  const current = row.sitemap.urlsGeneration;
  const final = attempt.final || attempts >= MAX_PROCESSING_ATTEMPTS;
  // The validators belong to the current list (they change only with it).
  const since = attempt.conditional && (row.sitemap.etag || row.sitemap.lastModified) ? { etag: row.sitemap.etag, lastModified: row.sitemap.lastModified } : undefined;
  try {
    await db.update(sitemaps).set({ status: "processing", processingAttempts: attempts }).where(eq(sitemaps.id, sitemapId));
    // Rows of an attempt that died half-way belong to no list: start the new one clean.
    await dropOtherGenerations(db, sitemapId, current);
    const result = await crawl(db, sitemapId, current + 1, row.sitemap.url, row.domain, since);
    const now = new Date();
    if (result === "unchanged") {
      await db.update(sitemaps).set({ status: "done", lastProcessedAt: now, processingAttempts: 0 }).where(eq(sitemaps.id, sitemapId));
      return { status: "done", message: row.sitemap.statusMessage ?? "", changed: false };
    }
    if (result.failedChildren.length && result.documents === 1 && result.stored === 0) {
      // Only the index itself could be read: nothing to warm, and no reason to drop the last list.
      throw new SourceFormatError(`an index none of whose ${plural(result.failedChildren.length, "child sitemap")} could be read (${result.failedChildren[0]!.url}: ${result.failedChildren[0]!.reason})`);
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
        etag: single ? result.validators?.etag ?? null : null,
        lastModified: single ? result.validators?.lastModified ?? null : null,
        processingAttempts: 0,
      })
      .where(eq(sitemaps.id, sitemapId));
    await dropOtherGenerations(db, sitemapId, current + 1);
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
          : { status: "error", statusMessage: attempts >= MAX_PROCESSING_ATTEMPTS && !attempt.final ? `${message} (gave up after ${attempts} attempts)` : message, lastProcessedAt: new Date(), processingAttempts: 0 },
      )
      .where(eq(sitemaps.id, sitemapId));
    return { status: retry ? "retry" : "error", message };
  }
}
