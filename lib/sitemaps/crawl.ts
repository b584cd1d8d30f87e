import { sql } from "drizzle-orm";
import { type DocumentTally, sitemapDocuments, sitemapUrls } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import { type Database, ownedByThisProcess } from "@/lib/db";
import { recordset } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import { isOnDomain } from "@/lib/sites/domain-name";
import { describeSourceError, fetchXmlSource, fetchXmlSourceIfChanged, isSourceError, isTransient, type Validators } from "@/lib/sources";
import { emptyTally, MAX_URL_LENGTH, normaliseUrl, tallyUrl, type UrlDetails } from "@/lib/sources/site-urls";
import type { UrlEntry, XmlUrlSource } from "@/lib/sources/xml-urls";

/** Index nesting and fan-out limits: a sitemap index may list indexes, but not forever. */
const MAX_INDEX_DEPTH = 3;
const MAX_SITEMAPS_PER_ROOT = 500;
export const MAX_URLS_PER_SITEMAP = 1_000_000;
/**
 * Child sitemaps of an index read at the same time (PREHEAT_SITEMAP_CHILDREN_AT_ONCE, default 4,
 * at most 16). Downloading and parsing one overlaps with storing another; more would only multiply
 * the memory of documents in flight (up to 50,000 entries each) and the load on the site.
 */
function childrenAtOnce(): number {
  return setting("PREHEAT_SITEMAP_CHILDREN_AT_ONCE");
}
/**
 * Rows per statement, handed over as one JSON parameter. On the embedded database every statement
 * holds the one connection and the process's thread, and the API's requests wait behind it: a
 * 1,000-row statement held them 18 to 32 ms, a 250-row one 5 to 9, and GET /v1/me during a
 * 500,000-URL ingestion then answered in half the time at the median, the ingestion as fast
 * (docs/benchmarks.md). A PostgreSQL server works on its own process, where fewer round trips count.
 */
const insertChunk = (db: Database) => (ownedByThisProcess(db) ? 250 : 1000);
/** Transient failures of a child (5xx, 429, timeouts, broken transfers) are retried this often, this far apart, before it is skipped. */
const CHILD_ATTEMPTS = 3;
const CHILD_RETRY_MS = 500;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type Crawl = {
  rootUrl: string;
  cutOff: { url: string; entries: number; index: boolean }[];
  /** `kept`: URLs the child gave before it failed, stored all the same. */
  failedChildren: { url: string; reason: string; kept: number }[];
  validators: Validators | null;
  capped: boolean;
  stored: number;
  /** Rows being written now: counted against the cap before they land. */
  storing: number;
  invalid: number;
  offDomain: number;
  duplicates: number;
  tooLong: number;
  documents: number;
  skippedChildren: string[];
  repeatedChildren: number;
};

/** Stores one chunk of a document's URLs in `generation`; answers how many were new to it. */
async function storeChunk(db: Database, sitemapId: number, generation: number, chunk: Map<string, UrlDetails>): Promise<number> {
  if (!chunk.size) return 0;
  const rows = JSON.stringify([...chunk].map(([url, { lastmod, priority }]) => ({ url, lastmod, priority })));
  // A URL listed in two documents keeps its newest lastmod and its highest priority (greatest ignores nulls).
  const [result] = rowsOf<{ inserted: number }>(
    await db.execute(sql`
    with written as (
      insert into ${sitemapUrls} (sitemap_id, generation, url, lastmod, priority)
      select ${sitemapId}, ${generation}, v.url, v.lastmod, v.priority from ${recordset(rows, "url text, lastmod timestamptz, priority real")}
      on conflict (sitemap_id, generation, url) do update
        set lastmod = greatest(${sitemapUrls.lastmod}, excluded.lastmod), priority = greatest(${sitemapUrls.priority}, excluded.priority)
      returning (xmax = 0) as inserted
    )
    select count(*) filter (where inserted)::int as inserted from written`),
  );
  return result?.inserted ?? 0;
}

const emptyDocumentTally = (): DocumentTally => ({ invalid: 0, offDomain: 0, tooLong: 0, duplicates: 0, cutOffAfter: null });

type SkippedCounts = Pick<DocumentTally, "invalid" | "offDomain" | "tooLong" | "duplicates">;

/** Adds the URLs skipped by reason in `from` to `to`: a chunk's to its document's, a document's to the crawl's. */
function addUp(to: SkippedCounts, from: SkippedCounts): void {
  to.invalid += from.invalid;
  to.offDomain += from.offDomain;
  to.tooLong += from.tooLong;
  to.duplicates += from.duplicates;
}

/** Stores a document's URLs chunk by chunk, each skipped one counted in `document` by its reason; answers how many were new. */
async function storeEntries(db: Database, sitemapId: number, generation: number, entries: UrlEntry[], domain: string, state: Crawl, document: DocumentTally): Promise<number> {
  let added = 0;
  const chunkSize = insertChunk(db);
  for (let i = 0; i < entries.length; i += chunkSize) {
    const tally = emptyTally();
    for (const entry of entries.slice(i, i + chunkSize)) tallyUrl(tally, entry.loc, domain, { lastmod: entry.lastmod, priority: entry.priority ?? null });
    addUp(document, tally);
    const room = Math.max(0, MAX_URLS_PER_SITEMAP - state.stored - state.storing);
    if (tally.urls.size > room) state.capped = true;
    if (!room) break;
    const chunk = tally.urls.size > room ? new Map([...tally.urls].slice(0, room)) : tally.urls;
    state.storing += chunk.size;
    try {
      const inserted = await storeChunk(db, sitemapId, generation, chunk);
      state.stored += inserted;
      added += inserted;
      document.duplicates += chunk.size - inserted;
    } finally {
      state.storing -= chunk.size;
    }
    await yieldToEventLoop();
  }
  return added;
}

/** Reads a child, again after a transient failure; `document` counts what the last attempt read (an earlier one read the same entries). */
async function fetchChild(url: string, document: DocumentTally, onEntries: (entries: UrlEntry[]) => Promise<void>): Promise<XmlUrlSource> {
  for (let attempt = 1; ; attempt++) {
    Object.assign(document, emptyDocumentTally());
    try {
      // An attempt that breaks off has stored what it read; the next one finds those rows already there.
      return await fetchXmlSource(url, undefined, { onEntries });
    } catch (error) {
      if (attempt >= CHILD_ATTEMPTS || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, CHILD_RETRY_MS * attempt));
    }
  }
}

/** Runs `work` on every item, at most `limit` at a time; the first error stops new work and is thrown. */
async function forEachAtOnce<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** What an earlier attempt on the same generation left: its rows, and the children it stored whole. */
export type Resumed = { stored: number; documents: Map<string, DocumentTally> };

/**
 * Reads the sitemap and its index children breadth first, a level at a time, up to
 * childrenAtOnce() documents at once, storing URLs as each document is read. The children an index
 * lists are taken in the order it lists them, whatever order they were read in. Each child stored
 * whole is noted (sitemap_documents): taken up again after an error or a crash, `resumed` skips it.
 */
export async function crawl(db: Database, sitemapId: number, generation: number, rootUrl: string, domain: string, since?: Validators, resumed?: Resumed): Promise<Crawl | "unchanged"> {
  const state: Crawl = {
    rootUrl,
    cutOff: [],
    failedChildren: [],
    validators: null,
    capped: false,
    stored: resumed?.stored ?? 0,
    storing: 0,
    invalid: 0,
    offDomain: 0,
    duplicates: 0,
    tooLong: 0,
    documents: 0,
    skippedChildren: [],
    repeatedChildren: 0,
  };
  // URLs are stored as each document is read, a thousand at a time: no document is held whole.
  const storer = (document: DocumentTally, added?: (count: number) => void) => async (entries: UrlEntry[]) => {
    const count = await storeEntries(db, sitemapId, generation, entries, domain, state, document);
    added?.(count);
  };
  const rootTally = emptyDocumentTally();
  const root = await fetchXmlSourceIfChanged(rootUrl, since, undefined, { onEntries: storer(rootTally) });
  if (!root) return "unchanged";
  state.validators = root.validators;
  const seen = new Set<string>([rootUrl]);
  let level: { url: string; source?: XmlUrlSource; tally?: DocumentTally }[] = [{ url: rootUrl, source: root.source, tally: rootTally }];
  for (let depth = 0; level.length; depth++) {
    // Filled by position, so what is reported and followed keeps the order the documents were listed in.
    const indexes: { url: string; entries: UrlEntry[] }[] = [];
    const failed: Crawl["failedChildren"] = [];
    const cut: Crawl["cutOff"] = [];
    await forEachAtOnce(level, childrenAtOnce(), async ({ url, source: known, tally }, position) => {
      const stored = resumed?.documents.get(url);
      if (stored) {
        state.documents++;
        addUp(state, stored);
        if (stored.cutOffAfter !== null) cut[position] = { url, entries: stored.cutOffAfter, index: false };
        return;
      }
      const document = tally ?? emptyDocumentTally();
      let source = known;
      if (!source) {
        let kept = 0;
        // A child that cannot be read is skipped: the others' URLs are worth having.
        try {
          source = await fetchChild(
            url,
            document,
            storer(document, (count) => (kept += count)),
          );
        } catch (error) {
          if (!isSourceError(error)) throw error;
          addUp(state, document);
          failed[position] = { url, reason: describeSourceError(error).replace(/\.$/, ""), kept };
          return;
        }
      }
      state.documents++;
      if (source.truncated) cut[position] = { url, entries: source.count, index: source.kind === "sitemapindex" };
      // A robots.txt's Sitemap: lines are followed as an index's children.
      if (source.kind === "sitemapindex" || source.kind === "robots") {
        indexes[position] = { url, entries: source.entries };
        return;
      }
      await storer(document)(source.entries); // what was not handed over while reading (a text sitemap's lines)
      addUp(state, document);
      if (url === rootUrl) return; // the root is read again by any retry: it says what the children are
      document.cutOffAfter = source.truncated ? source.count : null;
      await db.insert(sitemapDocuments).values({ sitemapId, generation, url, tally: document }).onConflictDoNothing();
    });
    state.failedChildren.push(...failed.filter(Boolean));
    state.cutOff.push(...cut.filter(Boolean));
    const next: { url: string }[] = [];
    for (const index of indexes) {
      if (!index) continue;
      for (const entry of index.entries) {
        const child = normaliseUrl(entry.loc, index.url);
        if (!child || !isOnDomain(child, domain) || child.toString().length > MAX_URL_LENGTH) {
          state.skippedChildren.push(entry.loc.slice(0, 200));
        } else if (seen.has(child.toString())) {
          state.repeatedChildren++; // a cycle, or the same child listed twice
        } else if (depth + 1 > MAX_INDEX_DEPTH || seen.size >= MAX_SITEMAPS_PER_ROOT) {
          state.skippedChildren.push(entry.loc);
        } else {
          seen.add(child.toString());
          next.push({ url: child.toString() });
        }
      }
    }
    level = next;
  }
  return state;
}
