import { and, asc, eq, inArray } from "drizzle-orm";
import type { PlannedCall } from "@/lib/core/calls";
import { runBatches, runs } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { VISITOR_PROFILES, type VisitorProfile } from "@/lib/core/visitor-profiles";
import { type CheckedRun, planCheckBatches } from "./check-batches";

/** A region's visitor check never asks more than this: URLs × visitors × cookie sets. */
const MAX_VISITOR_REQUESTS_PER_REGION = 500;
/** Batches whose URLs are read for the sample: spread over the run, whatever its size. */
const SAMPLE_BATCHES = 20;

/** The URLs each visitor asks for in a region, with so many cookie sets (each of its URLs is asked once per set). */
function visitorSampleSize(cookieSets: number): number {
  const perUrl = VISITOR_PROFILES.length * Math.max(1, cookieSets);
  return Math.max(1, Math.min(setting("PREHEAT_VISITOR_CHECK_URLS"), Math.floor(MAX_VISITOR_REQUESTS_PER_REGION / perUrl)));
}

/**
 * The URLs each visitor asks for: different URLs for each, so that no visitor's miss fills the cache
 * for another and every figure tells what the warm left. Up to `perVisitor` each, spread over the
 * region's URLs; a region with fewer URLs than visitors shares them, taken in turn.
 */
export function visitorShares(urls: readonly string[], perVisitor: number): Map<VisitorProfile, string[]> {
  const visitors = VISITOR_PROFILES.length;
  const sample = spread(urls, perVisitor * visitors);
  return new Map(VISITOR_PROFILES.map((visitor, v) => [visitor, sample.length >= visitors ? sample.filter((_, j) => j % visitors === v) : sample.length ? [sample[v % sample.length]!] : []]));
}

/** The most requests a run's visitor check makes in one region with so many URLs and cookie sets. */
export function visitorCheckRequests(urlCount: number, cookieSets: number): number {
  const sets = Math.max(1, cookieSets);
  const perVisitor = visitorSampleSize(cookieSets);
  const visitors = VISITOR_PROFILES.length;
  const urls = urlCount >= visitors ? Math.min(urlCount, perVisitor * visitors) : urlCount ? visitors : 0;
  return urls * sets;
}

/** The estimate's word on a visitor check: what it adds after each run, apart from the calls. */
export function visitorCheckNote(urlCount: number, regions: number, cookieSets: number): string {
  const perRegion = visitorCheckRequests(urlCount, cookieSets);
  return `the visitor check adds up to ${perRegion * regions} requests after each run (${perRegion} per region), not counted in calls nor in the quota`;
}

/** Up to `size` of the items, spread evenly from the first on: a sample of the whole run, not of its start. */
export function spread<T>(items: readonly T[], size: number): T[] {
  if (items.length <= size) return [...items];
  return Array.from({ length: size }, (_, i) => items[Math.floor((i * items.length) / size)]!);
}

/**
 * The calls of one visitor's check in a region: each sampled URL once per cookie set (or once),
 * in the run's languages taken in turn (a visitor speaks one), as the visitor sends it.
 */
function visitorCalls(visitor: string, urls: readonly string[], languages: readonly string[], cookieSets: readonly string[]): PlannedCall[] {
  return urls.flatMap((url, i) => {
    const language = languages.length ? languages[i % languages.length]! : null;
    return (cookieSets.length ? cookieSets : [null]).map((set) => {
      const call: PlannedCall = { url, user_agent: visitor, language, visitor };
      if (set !== null) call.cookie_set = set;
      return call;
    });
  });
}

/** The distinct URLs of a region's warming batches, in call order, read from at most SAMPLE_BATCHES of them spread over the run. */
async function regionUrls(tx: Database, runId: number, region: string): Promise<string[]> {
  const batches = await tx
    .select({ id: runBatches.id })
    .from(runBatches)
    .where(and(eq(runBatches.runId, runId), eq(runBatches.region, region), eq(runBatches.purpose, "warm")))
    .orderBy(asc(runBatches.seq));
  const chosen = spread(batches, SAMPLE_BATCHES).map((b) => b.id);
  if (!chosen.length) return [];
  const rows = await tx.select({ calls: runBatches.calls }).from(runBatches).where(inArray(runBatches.id, chosen)).orderBy(asc(runBatches.seq));
  return [...new Set(rows.flatMap((row) => row.calls.map((call) => call.url)))];
}

/**
 * For each run asking for a visitor check (`verify: "visitors"`) whose calls are all made and not
 * checked yet: a sample of each region's URLs asked once by the standard visitors, a batch per
 * visitor and region (purpose `visitors`, lib/runs/check-batches.ts). Answers the runs that now
 * have a check to wait for.
 */
export function planVisitorChecks(db: Database, runIds: readonly number[]): Promise<Set<number>> {
  return planCheckBatches(db, runIds, { purpose: "visitors", wants: eq(runs.verifyVisitors, true), batchesOf: visitorBatches });
}

async function visitorBatches(tx: Database, run: CheckedRun): Promise<Map<string, PlannedCall[][]>> {
  const cookieSets = (run.variations?.cookie_sets ?? []).map((set) => set.name);
  const languages = run.variations?.languages ?? [];
  const batches = new Map<string, PlannedCall[][]>();
  for (const region of run.regions) {
    const shares = visitorShares(await regionUrls(tx, run.id, region), visitorSampleSize(cookieSets.length));
    if (!shares.get(VISITOR_PROFILES[0])!.length) continue;
    batches.set(
      region,
      [...shares].map(([visitor, urls]) => visitorCalls(visitor, urls, languages, cookieSets)),
    );
  }
  return batches;
}
