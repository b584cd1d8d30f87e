import { and, eq, sql } from "drizzle-orm";
import { runBatches, runs } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { gatheredPerDatabase } from "@/lib/db/gathered";
import { plural } from "@/lib/core/format";
import { inIds, recordset } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import type { RegionCode } from "@/lib/core/regions";
import { regionReach, warmedElsewhereSentence } from "@/lib/warm/pop-locations";
import { blockedSentence } from "@/lib/warm/blocked";
import { letPreheatThrough, mainVendor, recordBlockedVerdicts } from "./blocked";
import { reactivateBoostsOfEndedRuns } from "./lifecycle";
import { breakdownFrom, egressReadOnce, emptySummary, popsPerRegion, summaryOf } from "./summary";
import { figuresOfRuns, sumOf } from "./batch-figures";
import { planVerifications } from "./verify";
import { planVisitorChecks } from "./visitor-check";

type Run = typeof runs.$inferSelect;

/**
 * Ends a run whose batches are all warmed: its final status and message, and the boost's status.
 * Idempotent: a run that is no longer running, or still has batches to warm (another region's job
 * ends it), is left as it is. Answers whether this call ended it. Runs ending within a
 * few milliseconds of each other are ended together, with one statement of each kind.
 */
export function finishRun(db: Database, runId: number): Promise<boolean> {
  return finishTogether(db, runId);
}

const finishTogether = gatheredPerDatabase((db: Database, ids: readonly number[]) => finishMany(db, ids, false), 500);

/**
 * Ends the keep-warm runs among `runIds` whose window has passed and whose batches are all warmed;
 * answers those ended. Only the keep-warm tick calls this (ADR 0010): it also adds their re-warms,
 * one pass at a time, so a run is never ended while a re-warm is being added to it.
 */
export async function endKeepWarmRuns(db: Database, runIds: readonly number[]): Promise<number[]> {
  const ended = await finishMany(db, runIds, true);
  return runIds.filter((_, i) => ended[i]);
}

/**
 * The run's closing message: its figures, what they mean when nothing was warmed, and each region
 * whose calls were answered by PoPs outside it (its visitors' PoPs were not warmed).
 */
function closing(
  run: Run,
  figures: { total: number; ok: number; failed: number; hits: number; bypassed: number; blockedBy: Record<string, number> },
  pops: Map<string, { pop: string; calls: number }[]>,
): { status: "done" | "failed"; message: string } {
  const { total, ok, failed, hits, bypassed } = figures;
  const status = total > 0 && failed === total ? "failed" : "done";
  const parts = [`${plural(total, "call")}: ${plural(ok, "success", "successes")}, ${failed} failed, ${plural(hits, "cache hit")}.`];
  if (bypassed && bypassed === total - failed) {
    parts.push("Every answer bypassed the CDN's cache (it does not cache these requests, e.g. crawler user agents on Vercel): nothing was warmed.");
  } else if (bypassed) {
    parts.push(`${plural(bypassed, "answer")} bypassed the CDN's cache.`);
  }
  if (status === "failed") parts.push(`Every call failed, e.g. ${run.failureSamples[0]?.error ?? "unknown error"}.`);
  // Fewer than the early stop needs, or later in the run: still named, since these calls warmed nothing.
  const vendor = mainVendor(figures.blockedBy);
  if (vendor) {
    const blocked = Object.values(figures.blockedBy).reduce((n, count) => n + count, 0);
    parts.push(`${blockedSentence(vendor)} on ${plural(blocked, "call")}: ${letPreheatThrough()}.`);
  }
  for (const region of run.regions as RegionCode[]) {
    const reach = regionReach(region, pops.get(region) ?? []);
    if (reach.reached === "elsewhere") parts.push(warmedElsewhereSentence(region, reach.pops));
  }
  return { status, message: [run.statusMessage, ...parts].filter(Boolean).join(" ") };
}

/** The regions of each run whose batches are not all warmed yet; a run absent from the map has none left. */
export async function pendingRegionsOf(db: Database, runIds: number[]): Promise<Map<number, string[]>> {
  const regions = new Map<number, string[]>();
  if (!runIds.length) return regions;
  const pending = await db
    .selectDistinct({ runId: runBatches.runId, region: runBatches.region })
    .from(runBatches)
    .where(and(inIds(runBatches.runId, runIds), eq(runBatches.status, "pending")));
  for (const { runId, region } of pending) regions.set(runId, [...(regions.get(runId) ?? []), region]);
  return regions;
}

/** Ends the runs among `ids` that are done; keep-warm runs only when `keepWarmTick` (endKeepWarmRuns) and their window has passed. */
async function finishMany(db: Database, ids: readonly number[], keepWarmTick: boolean): Promise<boolean[]> {
  const running = await db
    .select()
    .from(runs)
    .where(and(inIds(runs.id, [...ids]), eq(runs.status, "running")));
  if (!running.length) return ids.map(() => false);
  // Once no batch of a run is pending, its statistics are final (a batch is marked done with its last figures).
  const waiting = await pendingRegionsOf(
    db,
    running.map((r) => r.id),
  );
  // A keep-warm run gathers its boost's re-warms until its window ends (ADR 0010): its batches being done says nothing until then,
  // and the tick that adds them is the one that ends it.
  const now = Date.now();
  const endsHere = (run: Run) => (run.trigger === "keep_warm" ? keepWarmTick && (!run.openUntil || run.openUntil.getTime() <= now) : true);
  const warmed = running.filter((run) => !waiting.has(run.id) && endsHere(run));
  // A run asking for `verify` asks its cacheable misses again, or its visitors, before it ends (once: then it ends here).
  const verifying = await planVerifications(
    db,
    warmed.filter((run) => run.verify).map((run) => run.id),
  );
  const checking = await planVisitorChecks(
    db,
    warmed.filter((run) => run.verifyVisitors).map((run) => run.id),
  );
  const ready = warmed.filter((run) => !verifying.has(run.id) && !checking.has(run.id));
  if (!ready.length) return ids.map(() => false);
  const readyIds = ready.map((run) => run.id);
  const figures = await figuresOfRuns(db, readyIds);
  // Its batches are final: the breakdown read now is the one every later read shows, so it is kept with the summary.
  const egressNow = egressReadOnce(db);
  const breakdowns = new Map(await Promise.all([...figures].map(async ([runId, ofRun]) => [runId, await breakdownFrom(db, ofRun, egressNow)] as const)));
  const values = ready.map((run) => {
    const ofRun = figures.get(run.id);
    const summary = ofRun ? summaryOf(ofRun) : emptySummary();
    const { status, message } = closing(
      run,
      {
        total: summary.total_calls,
        ok: summary.successful_calls,
        failed: summary.failed_calls,
        hits: summary.cache_hits,
        bypassed: ofRun ? sumOf(ofRun, "warm").bypassed : 0,
        blockedBy: summary.blocked_by,
      },
      ofRun ? popsPerRegion(ofRun) : new Map(),
    );
    return { id: run.id, status, message, summary, breakdown: breakdowns.get(run.id) ?? null };
  });
  // Before the runs end: whoever sees a run ended sees what it found of the site's bot protection.
  await recordBlockedVerdicts(db, readyIds);
  const ended = (await db.execute(sql`
    update ${runs} as r set status = v.status, status_message = v.message, finished_at = now(), summary = v.summary, breakdown = v.breakdown
    from ${recordset(JSON.stringify(values), "id int, status text, message text, summary jsonb, breakdown jsonb")}
    where r.id = v.id and r.status = 'running'
    returning r.id`)) as unknown;
  const endedIds = new Set(rowsOf<{ id: number }>(ended).map((row) => Number(row.id)));
  // A boost's status follows its scheduled and triggered runs; its keep-warm runs go on beside them.
  const endedBoosts = ready.filter((run) => endedIds.has(run.id) && run.boostId && run.trigger !== "keep_warm").map((run) => run.boostId!);
  await reactivateBoostsOfEndedRuns(db, endedBoosts);
  return ids.map((id) => endedIds.has(id));
}
