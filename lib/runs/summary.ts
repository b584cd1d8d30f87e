import { and, eq, sql } from "drizzle-orm";
import type { Egress } from "@/lib/core/regions";
import { runBatches, runs } from "@/drizzle/schema";
import type { RegionCode } from "@/lib/core/regions";
import { regionReach } from "@/lib/warm/pop-locations";
import { regionsWithEgress } from "@/lib/warm/workers";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { idList, inIds } from "@/lib/db/recordset";
import { adviceFor, mostlyVaryOn, type VisitorCounts, visitorFigures } from "./advice";
import { isVisitorProfile } from "@/lib/warm/visitors";
import { VISITOR_PROFILES, type VisitorProfile } from "@/lib/core/visitor-profiles";
import { type CallPlan, variantKey, variantOfKey, variantsOf } from "./calls";
import type { PopBreakdown, RegionBreakdown, Summary, VariantBreakdown } from "@/lib/core/run-figures";

/** The summary of a run with no call recorded yet: a new object each time, its maps filled by the caller. */
export const emptySummary = (): Summary => ({
  total_calls: 0,
  successful_calls: 0,
  failed_calls: 0,
  cache_hits: 0,
  average_response_time_ms: 0,
  pops: {},
  not_cached: {},
  blocked_by: {},
  cache_misses: 0,
  average_hit_response_time_ms: null,
  average_miss_response_time_ms: null,
  verified: null,
  visitors: null,
  advice: [],
});

/** A group of batches' figures: its calls, their outcomes and their response time, summed (as numeric text). */
const batchSums = {
  total: sql<string>`sum(${runBatches.totalCalls})`,
  ok: sql<string>`sum(${runBatches.successfulCalls})`,
  failed: sql<string>`sum(${runBatches.failedCalls})`,
  hits: sql<string>`sum(${runBatches.cacheHits})`,
  time: sql<string>`sum(${runBatches.responseTimeMsTotal})`,
};

/** An average in ms to one decimal; null over no call. */
const averageMs = (totalMs: number, calls: number): number | null => (calls ? Math.round((totalMs / calls) * 10) / 10 : null);

const COUNT_COLUMNS = ["not_cached", "pops", "blocked_by", "answer_headers"] as const;
type CountColumn = (typeof COUNT_COLUMNS)[number];
type CountsPerRun = Record<CountColumn, Map<number, Record<string, number>>>;

/**
 * Per run, each jsonb map of counts summed over its own batches (verification batches are counted
 * apart): one scan of the batches for the four maps.
 */
async function countsPerRun(db: Database, runIds: readonly number[]): Promise<CountsPerRun> {
  const counts = Object.fromEntries(COUNT_COLUMNS.map((column) => [column, new Map()])) as CountsPerRun;
  if (!runIds.length) return counts;
  const maps = sql.join(
    COUNT_COLUMNS.map((column) => sql`select ${column}::text as map, key, value from jsonb_each_text(b.${sql.identifier(column)})`),
    sql` union all `,
  );
  const result = await db.execute(
    sql`select b.run_id, c.map, c.key, sum(c.value::int) as n
        from ${runBatches} b cross join lateral (${maps}) c
        where b.run_id in ${idList(runIds)} and b.purpose = 'warm'
        group by b.run_id, c.map, c.key`,
  );
  for (const row of rowsOf<{ run_id: number; map: CountColumn; key: string; n: string }>(result)) {
    const perRun = counts[row.map];
    const runId = Number(row.run_id);
    perRun.set(runId, { ...perRun.get(runId), [row.key]: Number(row.n) });
  }
  return counts;
}

/** Sums per-batch statistics into each run's summary: four aggregate queries at once (five with a visitor check), whatever the run size or count. */
export async function summariseRuns(db: Database, runIds: number[]): Promise<Map<number, Summary>> {
  const summaries = new Map<number, Summary>();
  if (!runIds.length) return summaries;
  // Independent reads, all at once: on the embedded database each round of statements waits for a turn of the event loop.
  const [totals, counts, planned, variants] = await Promise.all([
    db
      .select({
        runId: runBatches.runId,
        ...batchSums,
        hitTime: sql<string>`sum(${runBatches.hitMsTotal})`,
        missTime: sql<string>`sum(${runBatches.missMsTotal})`,
        purpose: runBatches.purpose,
      })
      .from(runBatches)
      .where(inIds(runBatches.runId, runIds))
      .groupBy(runBatches.runId, runBatches.purpose),
    countsPerRun(db, runIds),
    db.select({ id: runs.id, verify: runs.verify, verifyVisitors: runs.verifyVisitors, variations: runs.variations, requestProfile: runs.requestProfile }).from(runs).where(inIds(runs.id, runIds)),
    variantFiguresPerRun(db, runIds),
  ]);
  const missTimes = new Map<number, number>();
  const verifications = new Map<number, { calls: number; hits: number }>();
  // Verification calls are counted apart: the run's figures are its own calls only.
  for (const row of totals.filter((r) => r.purpose === "verify")) verifications.set(row.runId, { calls: Number(row.total), hits: Number(row.hits) });
  for (const row of totals.filter((r) => r.purpose === "warm")) {
    const total = Number(row.total);
    const hits = Number(row.hits);
    missTimes.set(row.runId, Number(row.missTime));
    summaries.set(row.runId, {
      ...emptySummary(),
      total_calls: total,
      successful_calls: Number(row.ok),
      failed_calls: Number(row.failed),
      cache_hits: hits,
      average_response_time_ms: averageMs(Number(row.time), total) ?? 0,
      average_hit_response_time_ms: averageMs(Number(row.hitTime), hits),
    });
  }
  for (const [runId, summary] of summaries) {
    summary.not_cached = counts.not_cached.get(runId) ?? {};
    summary.blocked_by = counts.blocked_by.get(runId) ?? {};
    summary.pops = counts.pops.get(runId) ?? {};
    summary.cache_misses = summary.not_cached.miss ?? 0;
    summary.average_miss_response_time_ms = averageMs(missTimes.get(runId) ?? 0, summary.cache_misses);
  }
  for (const { id } of planned.filter((run) => run.verify)) {
    summaries.set(id, { ...(summaries.get(id) ?? emptySummary()), verified: verifications.get(id) ?? { calls: 0, hits: 0 } });
  }
  const visitorCounts = await visitorCountsPerRun(
    db,
    planned.filter((run) => run.verifyVisitors),
  );
  for (const run of planned) {
    const summary = summaries.get(run.id) ?? emptySummary();
    const headers = counts.answer_headers.get(run.id) ?? {};
    const visitors = visitorCounts.get(run.id);
    summary.visitors = run.verifyVisitors ? visitorFigures(visitors ?? new Map(), run, mostlyVaryOn(headers)) : null;
    summary.advice = adviceFor({ plan: run, answerHeaders: headers, variants: variants.get(run.id) ?? {}, visitors: summary.visitors, blockedBy: summary.blocked_by });
    summaries.set(run.id, summary);
  }
  return summaries;
}

/** Per run, each variant's calls and hits (warming batches). */
async function variantFiguresPerRun(db: Database, runIds: readonly number[]): Promise<Map<number, Record<string, { calls: number; hits: number }>>> {
  const perRun = new Map<number, Record<string, { calls: number; hits: number }>>();
  if (!runIds.length) return perRun;
  const result = await db.execute(
    sql`select b.run_id, f.key, sum((f.value ->> 'calls')::int) as calls, sum((f.value ->> 'hits')::int) as hits
        from ${runBatches} b, jsonb_each(b.variant_figures) f
        where b.run_id in ${idList(runIds)} and b.purpose = 'warm'
        group by b.run_id, f.key`,
  );
  for (const row of rowsOf<{ run_id: number; key: string; calls: string; hits: string }>(result)) {
    const runId = Number(row.run_id);
    perRun.set(runId, { ...perRun.get(runId), [row.key]: { calls: Number(row.calls), hits: Number(row.hits) } });
  }
  return perRun;
}

/**
 * Per run with a visitor check, each visitor's requests, hits, failures, reasons and blocks, summed
 * over its batches (a batch per visitor and region, purpose `visitors`), every visitor listed.
 */
async function visitorCountsPerRun(
  db: Database,
  checked: readonly { id: number; variations: { cookie_sets?: readonly unknown[] | null } | null }[],
): Promise<Map<number, Map<VisitorProfile, VisitorCounts & { urls: number }>>> {
  const perRun = new Map<number, Map<VisitorProfile, VisitorCounts & { urls: number }>>();
  if (!checked.length) return perRun;
  const ids = checked.map((run) => run.id);
  const visitor = sql`b.calls -> 0 ->> 'visitor'`;
  const [totals, reasons, blocks] = await Promise.all([
    db.execute(
      sql`select b.run_id, ${visitor} as visitor, sum(jsonb_array_length(b.calls)) as planned, sum(b.total_calls) as requests, sum(b.cache_hits) as hits, sum(b.failed_calls) as failed
          from ${runBatches} b where b.run_id in ${idList(ids)} and b.purpose = 'visitors' group by 1, 2`,
    ),
    db.execute(
      sql`select b.run_id, ${visitor} as visitor, c.key, sum(c.value::int) as n
          from ${runBatches} b, jsonb_each_text(b.not_cached) c where b.run_id in ${idList(ids)} and b.purpose = 'visitors' group by 1, 2, 3`,
    ),
    db.execute(
      sql`select b.run_id, ${visitor} as visitor, c.key, sum(c.value::int) as n
          from ${runBatches} b, jsonb_each_text(b.blocked_by) c where b.run_id in ${idList(ids)} and b.purpose = 'visitors' group by 1, 2, 3`,
    ),
  ]);
  for (const run of checked) {
    perRun.set(run.id, new Map(VISITOR_PROFILES.map((profile) => [profile, { urls: 0, requests: 0, hits: 0, failed: 0, notCached: {}, blockedBy: {} }])));
  }
  const sets = new Map(checked.map((run) => [run.id, Math.max(1, run.variations?.cookie_sets?.length ?? 0)]));
  const entry = (row: { run_id: number; visitor: string }) => (isVisitorProfile(row.visitor) ? perRun.get(Number(row.run_id))?.get(row.visitor) : undefined);
  for (const row of rowsOf<{ run_id: number; visitor: string; planned: string; requests: string; hits: string; failed: string }>(totals)) {
    const counts = entry(row);
    if (!counts) continue;
    counts.urls = Number(row.planned) / sets.get(Number(row.run_id))!;
    counts.requests = Number(row.requests);
    counts.hits = Number(row.hits);
    counts.failed = Number(row.failed);
  }
  for (const [rows, field] of [
    [reasons, "notCached"],
    [blocks, "blockedBy"],
  ] as const) {
    for (const row of rowsOf<{ run_id: number; visitor: string; key: string; n: string }>(rows)) {
      const counts = entry(row);
      if (counts) counts[field][row.key] = Number(row.n);
    }
  }
  return perRun;
}

/** One run's figures per PoP, most calls first: hits and cacheable misses with their average response times. */
export async function summarisePops(db: Database, runId: number): Promise<PopBreakdown[]> {
  const result = await db.execute(
    sql`select p.key as pop, sum((p.value ->> 'calls')::int) as calls, sum((p.value ->> 'hits')::int) as hits,
               sum((p.value ->> 'hit_ms')::bigint) as hit_ms, sum((p.value ->> 'misses')::int) as misses, sum((p.value ->> 'miss_ms')::bigint) as miss_ms
        from ${runBatches} b, jsonb_each(b.pop_figures) p
        where b.run_id = ${runId} and b.purpose = 'warm'
        group by p.key
        order by calls desc, p.key`,
  );
  return rowsOf<{ pop: string; calls: string; hits: string; hit_ms: string; misses: string; miss_ms: string }>(result).map((row) => ({
    pop: row.pop,
    calls: Number(row.calls),
    hits: Number(row.hits),
    average_hit_response_time_ms: averageMs(Number(row.hit_ms), Number(row.hits)),
    average_miss_response_time_ms: averageMs(Number(row.miss_ms), Number(row.misses)),
  }));
}

/**
 * One run's calls and hits per variant: one entry per variant of its plan, in the order its calls
 * are made (zeros until its calls are counted), then any other its batches name. One aggregate query.
 */
export async function summariseVariants(db: Database, run: Pick<typeof runs.$inferSelect, "id"> & CallPlan): Promise<VariantBreakdown[]> {
  const result = await db.execute(
    sql`select f.key as key, sum((f.value ->> 'calls')::int) as calls, sum((f.value ->> 'hits')::int) as hits
        from ${runBatches} b, jsonb_each(b.variant_figures) f
        where b.run_id = ${run.id} and b.purpose = 'warm'
        group by f.key`,
  );
  const counted = new Map(rowsOf<{ key: string; calls: string; hits: string }>(result).map((row) => [row.key, { calls: Number(row.calls), hits: Number(row.hits) }]));
  const planned = variantsOf(run).map((variant) => ({ ...variant, ...(counted.get(variantKey(variant)) ?? { calls: 0, hits: 0 }) }));
  const plannedKeys = new Set(planned.map(variantKey));
  const others = [...counted].filter(([key]) => !plannedKeys.has(key)).map(([key, figures]) => ({ ...variantOfKey(key), ...figures }));
  return [...planned, ...others];
}

/**
 * One run's figures per region: one entry per region of the run, in its order (zeros until its
 * batches report), then any other region its batches name. One aggregate query.
 */
export async function summariseRegions(db: Database, runId: number, regions: readonly string[]): Promise<RegionBreakdown[]> {
  const rows = await db
    .select({
      region: runBatches.region,
      ...batchSums,
      bypassed: sql<string>`sum(${runBatches.bypassedCalls})`,
    })
    .from(runBatches)
    .where(and(eq(runBatches.runId, runId), eq(runBatches.purpose, "warm")))
    .groupBy(runBatches.region);
  const byRegion = new Map(rows.map((row) => [row.region, row]));
  const order = [...new Set([...regions, ...rows.map((row) => row.region).sort()])];
  const [used, pops] = await Promise.all([egressUsed(db, runId), popsPerRegion(db, [runId])]);
  const now = order.some((region) => !used.has(region)) ? await regionsWithEgress(db) : [];
  return order.map((region) => {
    const row = byRegion.get(region);
    const total = Number(row?.total ?? 0);
    return {
      ...regionReach(region as RegionCode, pops.get(runId)?.get(region) ?? []),
      egress: used.get(region) ?? now.find((r) => r.code === region)?.egress ?? "local",
      region: region as RegionBreakdown["region"],
      total_calls: total,
      successful_calls: Number(row?.ok ?? 0),
      failed_calls: Number(row?.failed ?? 0),
      cache_hits: Number(row?.hits ?? 0),
      bypassed_calls: Number(row?.bypassed ?? 0),
      average_response_time_ms: averageMs(Number(row?.time ?? 0), total) ?? 0,
    };
  });
}

/** Per run and region, the calls each PoP answered (warming calls only), most calls first. */
export async function popsPerRegion(db: Database, runIds: readonly number[]): Promise<Map<number, Map<string, { pop: string; calls: number }[]>>> {
  const perRun = new Map<number, Map<string, { pop: string; calls: number }[]>>();
  if (!runIds.length) return perRun;
  const result = await db.execute(
    sql`select b.run_id, b.region, p.key as pop, sum((p.value ->> 'calls')::int) as calls
        from ${runBatches} b, jsonb_each(b.pop_figures) p
        where b.run_id in ${idList(runIds)} and b.purpose = 'warm'
        group by b.run_id, b.region, p.key
        order by calls desc, p.key`,
  );
  for (const row of rowsOf<{ run_id: number; region: string; pop: string; calls: string }>(result)) {
    const regions = perRun.get(Number(row.run_id)) ?? new Map<string, { pop: string; calls: number }[]>();
    perRun.set(Number(row.run_id), regions);
    regions.set(row.region, [...(regions.get(row.region) ?? []), { pop: row.pop, calls: Number(row.calls) }]);
  }
  return perRun;
}

/** Per region, the egress most of the run's recorded calls used. */
async function egressUsed(db: Database, runId: number): Promise<Map<string, Egress>> {
  const result = await db.execute<{ region: string; egress: Egress; calls: string }>(
    sql`select b.region, e.key as egress, sum(e.value::int) as calls
        from ${runBatches} b, jsonb_each_text(b.egress_calls) e
        where b.run_id = ${runId} and b.purpose = 'warm'
        group by b.region, e.key
        order by calls desc, e.key`,
  );
  const used = new Map<string, Egress>();
  for (const row of rowsOf<{ region: string; egress: Egress }>(result)) if (!used.has(row.region)) used.set(row.region, row.egress);
  return used;
}
