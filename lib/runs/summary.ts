import type { Egress, RegionCode } from "@/lib/core/regions";
import { regionReach } from "@/lib/warm/pop-locations";
import { type RegionEgress, regionsWithEgress } from "@/lib/warm/workers";
import type { Database } from "@/lib/db";
import type { RunBreakdown } from "@/drizzle/schema";
import { adviceFor, mostlyVaryOn, type VisitorCounts, visitorFigures } from "./advice";
import { isVisitorProfile } from "@/lib/warm/visitors";
import { VISITOR_PROFILES, type VisitorProfile } from "@/lib/core/visitor-profiles";
import { variantKey, variantOfKey, variantsOf } from "./calls";
import type { PopBreakdown, RegionBreakdown, Summary, VariantBreakdown } from "@/lib/core/run-figures";
import { type RunFigures, type SummaryFigures, summaryFiguresOfRuns, sumOf, warmCounts } from "./batch-figures";

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

/** An average in ms to one decimal; null over no call. */
const averageMs = (totalMs: number, calls: number): number | null => (calls ? Math.round((totalMs / calls) * 10) / 10 : null);

/** Each run's summary, summed from its batches in one statement, whatever the run size or count. */
export async function summariseRuns(db: Database, runIds: number[]): Promise<Map<number, Summary>> {
  const figures = await summaryFiguresOfRuns(db, runIds);
  return new Map([...figures].map(([runId, ofRun]) => [runId, summaryOf(ofRun)]));
}

/** A run's summary from its figures: its own calls' (verification and visitor batches counted apart), with its advice. */
export function summaryOf(figures: SummaryFigures): Summary {
  const { plan } = figures;
  const warm = sumOf(figures, "warm");
  const notCached = warmCounts(figures, "not_cached");
  const blockedBy = warmCounts(figures, "blocked_by");
  const headers = warmCounts(figures, "answer_headers");
  const cacheMisses = notCached.miss ?? 0;
  const verification = sumOf(figures, "verify");
  const visitors = plan.verifyVisitors ? visitorFigures(visitorCounts(figures), plan, mostlyVaryOn(headers)) : null;
  return {
    ...emptySummary(),
    total_calls: warm.total,
    successful_calls: warm.ok,
    failed_calls: warm.failed,
    cache_hits: warm.hits,
    average_response_time_ms: averageMs(warm.timeMs, warm.total) ?? 0,
    average_hit_response_time_ms: averageMs(warm.hitMs, warm.hits),
    not_cached: notCached,
    blocked_by: blockedBy,
    pops: warmCounts(figures, "pops"),
    cache_misses: cacheMisses,
    average_miss_response_time_ms: averageMs(warm.missMs, cacheMisses),
    verified: plan.verify ? { calls: verification.total, hits: verification.hits } : null,
    visitors,
    advice: adviceFor({ plan, answerHeaders: headers, variants: figures.variants, visitors, blockedBy }),
  };
}

/**
 * Each standard visitor's requests, hits, failures, reasons and blocks of a visitor check (a batch
 * per visitor and region, purpose `visitors`), every visitor listed.
 */
function visitorCounts(figures: SummaryFigures): Map<VisitorProfile, VisitorCounts & { urls: number }> {
  const perVisitor = new Map(VISITOR_PROFILES.map((profile) => [profile, { urls: 0, requests: 0, hits: 0, failed: 0, notCached: {}, blockedBy: {} } as VisitorCounts & { urls: number }]));
  const entry = (visitor: string | null) => (visitor && isVisitorProfile(visitor) ? perVisitor.get(visitor) : undefined);
  const cookieSets = Math.max(1, figures.plan.variations?.cookie_sets?.length ?? 0);
  for (const { purpose, visitor, sums } of figures.sums) {
    const counts = purpose === "visitors" ? entry(visitor) : undefined;
    if (!counts) continue;
    // Each URL is asked once per cookie set: the visitor's URLs are its planned calls over the sets.
    counts.urls += sums.plannedCalls / cookieSets;
    counts.requests += sums.total;
    counts.hits += sums.hits;
    counts.failed += sums.failed;
  }
  for (const { purpose, visitor, map, key, n } of figures.counts) {
    const counts = purpose === "visitors" ? entry(visitor) : undefined;
    if (counts && map === "not_cached") counts.notCached[key] = n;
    if (counts && map === "blocked_by") counts.blockedBy[key] = n;
  }
  return perVisitor;
}

/** The most calls first, then by name. */
const byCallsThenName =
  <T extends { calls: number }>(name: (entry: T) => string) =>
  (a: T, b: T) =>
    b.calls - a.calls || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/** A run's figures per PoP, most calls first: hits and cacheable misses with their average response times. */
function popsBreakdown(figures: RunFigures): PopBreakdown[] {
  const perPop = new Map<string, { pop: string; calls: number; hits: number; hitMs: number; misses: number; missMs: number }>();
  for (const { pop, calls, hits, hitMs, misses, missMs } of figures.pops) {
    const sum = perPop.get(pop) ?? { pop, calls: 0, hits: 0, hitMs: 0, misses: 0, missMs: 0 };
    perPop.set(pop, { pop, calls: sum.calls + calls, hits: sum.hits + hits, hitMs: sum.hitMs + hitMs, misses: sum.misses + misses, missMs: sum.missMs + missMs });
  }
  return [...perPop.values()].sort(byCallsThenName((entry) => entry.pop)).map((sum) => ({
    pop: sum.pop,
    calls: sum.calls,
    hits: sum.hits,
    average_hit_response_time_ms: averageMs(sum.hitMs, sum.hits),
    average_miss_response_time_ms: averageMs(sum.missMs, sum.misses),
  }));
}

/**
 * A run's calls and hits per variant: one entry per variant of its plan, in the order its calls are
 * made (zeros until its calls are counted), then any other its batches name.
 */
function variantsBreakdown(figures: SummaryFigures): VariantBreakdown[] {
  const counted = new Map(Object.entries(figures.variants));
  const planned = variantsOf(figures.plan).map((variant) => ({ ...variant, ...(counted.get(variantKey(variant)) ?? { calls: 0, hits: 0 }) }));
  const plannedKeys = new Set(planned.map(variantKey));
  const others = [...counted].filter(([key]) => !plannedKeys.has(key)).map(([key, counts]) => ({ ...variantOfKey(key), ...counts }));
  return [...planned, ...others];
}

/** Per region, the calls each PoP answered (warming calls only), most calls first. */
export function popsPerRegion(figures: RunFigures): Map<string, { pop: string; calls: number }[]> {
  const perRegion = new Map<string, { pop: string; calls: number }[]>();
  for (const { region, pop, calls } of [...figures.pops].sort(byCallsThenName((entry) => entry.pop))) {
    perRegion.set(region, [...(perRegion.get(region) ?? []), { pop, calls }]);
  }
  return perRegion;
}

/** Per region, the egress most of the run's recorded calls used. */
function egressUsed(figures: RunFigures): Map<string, Egress> {
  const used = new Map<string, Egress>();
  for (const { region, egress } of [...figures.egress].sort(byCallsThenName((entry) => entry.egress))) if (!used.has(region)) used.set(region, egress as Egress);
  return used;
}

/**
 * A run's figures per region: one entry per region of the run, in its order (zeros until its
 * batches report), then any other region its batches name. A region no call has left from yet
 * shows the egress its calls would take now.
 */
async function regionsBreakdown(figures: RunFigures, egressNow: EgressNow): Promise<RegionBreakdown[]> {
  const counted = [...new Set(figures.sums.filter((entry) => entry.purpose === "warm").map((entry) => entry.region))];
  const order = [...new Set([...figures.plan.regions, ...counted.sort()])];
  const used = egressUsed(figures);
  const pops = popsPerRegion(figures);
  const now = order.some((region) => !used.has(region)) ? await egressNow() : [];
  return order.map((region) => {
    const sums = sumOf(figures, "warm", (entry) => entry.region === region);
    return {
      ...regionReach(region as RegionCode, pops.get(region) ?? []),
      egress: used.get(region) ?? now.find((r) => r.code === region)?.egress ?? "local",
      region: region as RegionBreakdown["region"],
      total_calls: sums.total,
      successful_calls: sums.ok,
      failed_calls: sums.failed,
      cache_hits: sums.hits,
      bypassed_calls: sums.bypassed,
      average_response_time_ms: averageMs(sums.timeMs, sums.total) ?? 0,
    };
  });
}

/** How each region's calls would leave now: read once, when a breakdown first needs it. */
type EgressNow = () => Promise<RegionEgress[]>;

/** The workers' table read at most once for all the breakdowns made with it (a run's end breaks many runs down at once). */
export function egressReadOnce(db: Database): EgressNow {
  let read: Promise<RegionEgress[]> | undefined;
  return () => (read ??= regionsWithEgress(db));
}

/** A run's breakdowns from its figures: per region, per PoP, per variant. */
export async function breakdownFrom(db: Database, figures: RunFigures, egressNow: EgressNow = egressReadOnce(db)): Promise<Required<RunBreakdown>> {
  return { regions: await regionsBreakdown(figures, egressNow), pops: popsBreakdown(figures), variants: variantsBreakdown(figures) };
}
