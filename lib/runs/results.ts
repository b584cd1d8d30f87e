import { and, asc, count, eq, ilike, isNotNull, isNull, type SQL } from "drizzle-orm";
import Papa from "papaparse";
import { runResults, type runs } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import { escapeLike } from "@/lib/db/like";
import type { AccountContext } from "@/lib/context";
import type { Page } from "@/lib/core/pagination";
import type { BlockVendor } from "@/lib/core/block-vendors";
import type { NotCachedReason } from "@/lib/core/not-cached";
import { findRun } from "./service";
import { warmCallsRecorded } from "./recorded-calls";
import type { ResultKind, RunResult } from "./schemas";

/** Rows kept per run in run_results (PREHEAT_RUN_RESULTS_MAX, default 100,000; a plan may set fewer, kept on the run): the run's calls, hits included, in call order. */
export function runResultsMax(): number {
  return setting("PREHEAT_RUN_RESULTS_MAX");
}

/** The recordset columns the warm loop writes run_results with (lib/runs/warm-loop.ts). */
export const RESULT_COLUMNS =
  "run_id int, batch_seq int, call_index int, region text, url text, user_agent text, language text, cookie_set text, encoding text, status_code int, cache_status text, pop text, response_time_ms int, reason text, blocked_by text, shared_lifetime_seconds int, age_seconds int, fresh_until timestamptz";

export type ResultFilters = { calls?: ResultKind; reason?: NotCachedReason; region?: string; url?: string };

const CSV_PAGE = 5_000;

function kindOf(filters: ResultFilters): SQL | undefined {
  if (filters.reason) return eq(runResults.reason, filters.reason);
  const calls = filters.calls ?? "not_hit";
  if (calls === "all") return undefined;
  return calls === "hit" ? isNull(runResults.reason) : isNotNull(runResults.reason);
}

function where(runId: number, filters: ResultFilters): SQL | undefined {
  return and(
    eq(runResults.runId, runId),
    kindOf(filters),
    filters.region ? eq(runResults.region, filters.region) : undefined,
    filters.url ? ilike(runResults.url, `%${escapeLike(filters.url)}%`) : undefined,
  );
}

function toResult(row: typeof runResults.$inferSelect): RunResult {
  return {
    url: row.url,
    user_agent: row.userAgent,
    language: row.language,
    cookie_set: row.cookieSet,
    encoding: row.encoding,
    region: row.region as RunResult["region"],
    status_code: row.statusCode,
    cache_status: row.cacheStatus,
    pop: row.pop,
    response_time_ms: row.responseTimeMs,
    reason: row.reason as NotCachedReason | null,
    verified_cache_status: row.verifiedCacheStatus,
    blocked_by: row.blockedBy as BlockVendor | null,
    shared_lifetime_seconds: row.sharedLifetimeSeconds,
    age_seconds: row.ageSeconds,
    fresh_until: row.freshUntil?.toISOString() ?? null,
  };
}

async function readPage(ctx: AccountContext, runId: number, filters: ResultFilters, page: Page): Promise<RunResult[]> {
  const rows = await ctx.db.select().from(runResults).where(where(runId, filters)).orderBy(asc(runResults.batchSeq), asc(runResults.callIndex)).limit(page.limit).offset(page.offset);
  return rows.map(toResult);
}

/**
 * One page of the run's calls that match, in call order (by default those that did not end as a cache
 * hit). `truncated`: the run made more calls than it keeps rows for (`total` counts the stored rows
 * that match).
 */
export async function listRunResults(ctx: AccountContext, runId: number, filters: ResultFilters, page: Page) {
  const run = await findRun(ctx, runId);
  const [[counted], data] = await Promise.all([ctx.db.select({ total: count() }).from(runResults).where(where(runId, filters)), readPage(ctx, runId, filters, page)]);
  return { data, total: counted?.total ?? 0, ...page, truncated: await isTruncated(ctx, run) };
}

/** Whether the run made more calls than it kept rows for. */
async function isTruncated(ctx: AccountContext, run: typeof runs.$inferSelect): Promise<boolean> {
  if (run.resultsStored < (run.resultsMax ?? runResultsMax())) return false;
  const made = (await warmCallsRecorded(ctx.db, [run.id])).get(run.id) ?? 0;
  return made > run.resultsStored;
}

/** Columns added later come last, so that a reader of the first ones by position reads them still. */
const RESULT_CSV_FIELDS = [
  "url",
  "user_agent",
  "language",
  "region",
  "status_code",
  "cache_status",
  "pop",
  "response_time_ms",
  "reason",
  "verified_cache_status",
  "cookie_set",
  "encoding",
  "blocked_by",
  "shared_lifetime_seconds",
  "age_seconds",
  "fresh_until",
] as const;

/** Every stored row that matches, as CSV (a header row first), read a few thousand rows at a time. */
export async function runResultsCsv(ctx: AccountContext, runId: number, filters: ResultFilters): Promise<ReadableStream<Uint8Array>> {
  await findRun(ctx, runId);
  const encoder = new TextEncoder();
  let offset = 0;
  let header = true;
  return new ReadableStream({
    async pull(controller) {
      const rows = await readPage(ctx, runId, filters, { limit: CSV_PAGE, offset });
      offset += rows.length;
      const text = Papa.unparse({ fields: [...RESULT_CSV_FIELDS], data: rows.map((row) => RESULT_CSV_FIELDS.map((field) => row[field] ?? "")) }, { header, newline: "\r\n", escapeFormulae: true });
      if (text) controller.enqueue(encoder.encode(`${text}\r\n`));
      header = false;
      if (rows.length < CSV_PAGE) controller.close();
    },
  });
}
