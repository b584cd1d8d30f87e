import { asc, eq, sql } from "drizzle-orm";
import { boosts, runBatches, runResults, runs } from "@/drizzle/schema";
import { type KeptCall, keepEntries } from "@/lib/freshness/entries";
import { type FreshnessRecording, recordFreshness } from "@/lib/freshness/history";
import { keepWarmSettings } from "@/lib/freshness/next-due";
import type { Database } from "@/lib/db";
import { inIds, recordset } from "@/lib/db/recordset";
import { callEgress } from "@/lib/warm/workers";
import { blockedSoFar, recordBlockedVerdicts } from "./blocked";
import { pauseBoostsOfPausedRuns, reactivateBoostsOfEndedRuns } from "./lifecycle";
import { decideRecording, type LockedRun, type Recording, type RunDecision, runsToJudge } from "./recording-decision";
import { RESULT_COLUMNS, runResultsMax } from "./results";
import type { PlannedCall } from "@/lib/core/calls";
import { variantKey } from "./calls";
import { BATCH_SIZE } from "./plan";
import { MAX_FAILURE_SAMPLES, MAX_SLOWDOWNS, type RunDelta } from "./run-source";

/**
 * Records the outcomes the warm loop brings, in the caller's transaction, and answers what each run
 * does next. The runs are locked first, so that every worker's recordings of a run go in turn. The
 * batches are written before anything is decided: the early stop judges a run on its totals as this
 * recording leaves them.
 */
export async function recordOutcomes(tx: Database, deltas: readonly RunDelta[]): Promise<Map<number, RunDecision>> {
  const locked = await lockRuns(tx, [...new Set(deltas.map((d) => d.source.runId))]);
  await writeBatchProgress(tx, deltas);
  const soFar = await blockedSoFar(tx, runsToJudge(deltas));
  const recording = decideRecording({ locked, deltas, blockedSoFar: soFar, limits: { samples: MAX_FAILURE_SAMPLES, slowdowns: MAX_SLOWDOWNS, results: runResultsMax() } });
  await writeRecording(tx, recording);
  const recordedAt = new Date();
  await keepEntries(tx, keptCalls(locked, deltas, recordedAt));
  // Only the runs still there: a site deleted (with its runs) while its calls were out counts nothing,
  // and its freshness rows would refer to a site that is gone.
  const present = new Set(locked.map((run) => run.id));
  await recordFreshness(tx, freshnessOf(deltas.filter((delta) => present.has(delta.source.runId))), recordedAt);
  return recording.decisions;
}

/** A call's URL and variant: its entry's identity within a boost or a site, and region (a URL holds no space: the key reads back as URL and variant). */
function entryKey(call: PlannedCall): string {
  return `${call.url} ${variantKey(call)}`;
}

/**
 * What the recording adds to its sites' freshness hours (ADR 0011): every run's calls, counted per
 * site and region as the batches count them, and each warming call's answer as read for a shared
 * cache. A call without an answer (a timeout, a worker that died) says nothing of what the CDN holds.
 */
function freshnessOf(deltas: readonly RunDelta[]): FreshnessRecording {
  const readings = new Map<string, FreshnessRecording["readings"][number]>();
  const counts = new Map<string, FreshnessRecording["counts"][number]>();
  for (const delta of deltas) {
    const { siteId } = delta.source;
    for (const { batch, ok, failed, hits, warmed } of delta.batches) {
      if (batch.purpose === "verify") continue;
      const key = `${siteId} ${batch.region}`;
      const count = counts.get(key) ?? { siteId, region: batch.region, calls: 0, hits: 0, visitorCheckCalls: 0, visitorCheckHits: 0 };
      counts.set(key, count);
      if (batch.purpose === "visitors") {
        count.visitorCheckCalls += ok + failed;
        count.visitorCheckHits += hits;
        continue;
      }
      count.calls += ok + failed;
      count.hits += hits;
      for (const { call, reading } of warmed) {
        if (!reading) continue;
        const callKey = entryKey(call);
        // The last answer of an entry asked twice in one recording is the one the CDN keeps.
        readings.set(`${key} ${callKey}`, { siteId, region: batch.region, callKey, freshUntil: reading.freshUntil });
      }
    }
  }
  return { readings: [...readings.values()], counts: [...counts.values()].filter((c) => c.calls || c.visitorCheckCalls) };
}

/** A locked run, with its boost's keep-warm settings: a keep-warm boost's calls keep its entries. */
type LockedForKeepWarm = LockedRun & { siteId: number; accountId: number; trigger: string | null; keepWarmLead: number | null };

/**
 * The entries a recording keeps (ADR 0010): every warming call of a keep-warm boost's runs, with its
 * answer's reading. A call of a run that follows the boost's URL order (any but keep-warm's own) also
 * gives its entry its place in that order, for the monthly budget.
 */
function keptCalls(locked: readonly LockedForKeepWarm[], deltas: readonly RunDelta[], warmedAt: Date): KeptCall[] {
  const keeping = new Map(locked.filter((run) => run.boostId !== null && run.keepWarmLead !== null).map((run) => [run.id, run]));
  if (!keeping.size) return [];
  const kept: KeptCall[] = [];
  for (const delta of deltas) {
    const run = keeping.get(delta.source.runId);
    if (!run) continue;
    const settings = keepWarmSettings(run.keepWarmLead!);
    for (const { batch, warmed } of delta.batches) {
      for (const { index, call, reading } of warmed) {
        kept.push({
          boostId: run.boostId!,
          siteId: run.siteId,
          accountId: run.accountId,
          region: batch.region,
          callKey: entryKey(call),
          // A warming batch's call: its URL and variant, never a verification's `of` nor a visitor check's `visitor`.
          call,
          priority: run.trigger === "keep_warm" ? null : batch.seq * BATCH_SIZE + index,
          reading,
          warmedAt,
          settings,
        });
      }
    }
  }
  return kept;
}

/** What one recording transaction holds at most: runs, and their outcomes. */
type PartLimits = { runs: number; outcomes: number };

/**
 * On the embedded database a transaction holds the only thread's database to its end: with 1,000 runs
 * held, one transaction for all took 60 to 85 ms, a wait every request reading a run shared
 * (GET /v1/runs/{id} p99 106 to 522 ms), and parts of 100 outcomes rather than 1,000 let the freed
 * slots' reservations in between (a slot waited a third less for its next call, at no more CPU a
 * call). A PostgreSQL server lets others read during a transaction, and there parts of 100 outcomes
 * cost the workers a quarter more CPU for lower ratios: 1,000 (docs/benchmarks.md). A run's deltas
 * (one per region) are never split: its decision needs them all.
 */
export function recordingLimits(embedded: boolean): PartLimits {
  return { runs: 100, outcomes: embedded ? 100 : 1_000 };
}

/** The deltas in the parts each recorded in a transaction of its own, in the order given. */
export function recordingParts(deltas: readonly RunDelta[], limits: PartLimits): RunDelta[][] {
  const byRun = new Map<number, RunDelta[]>();
  for (const delta of deltas) {
    const run = byRun.get(delta.source.runId);
    if (run) run.push(delta);
    else byRun.set(delta.source.runId, [delta]);
  }
  const parts: RunDelta[][] = [];
  let part: RunDelta[] = [];
  let runsInPart = 0;
  let outcomesInPart = 0;
  for (const run of byRun.values()) {
    const outcomes = run.reduce((sum, d) => sum + d.recorded, 0);
    if (part.length && (runsInPart === limits.runs || outcomesInPart + outcomes > limits.outcomes)) {
      parts.push(part);
      part = [];
      runsInPart = 0;
      outcomesInPart = 0;
    }
    part.push(...run);
    runsInPart++;
    outcomesInPart += outcomes;
  }
  if (part.length) parts.push(part);
  return parts;
}

function lockRuns(tx: Database, ids: number[]): Promise<LockedForKeepWarm[]> {
  // Only what the decisions need (a warm's source_urls may hold 5,000 URLs): samples and slowdowns are appended by the database.
  return tx
    .select({
      id: runs.id,
      status: runs.status,
      boostId: runs.boostId,
      siteId: runs.siteId,
      accountId: runs.accountId,
      trigger: runs.trigger,
      // The boost's lead when it keeps its pages warm, null otherwise: whether this recording keeps entries.
      keepWarmLead: sql<number | null>`case when ${boosts.keepWarm} then ${boosts.keepWarmLead} end`,
      recentOutcomes: runs.recentOutcomes,
      resultsStored: runs.resultsStored,
      resultsMax: runs.resultsMax,
      samples: sql<number>`jsonb_array_length(${runs.failureSamples})`.mapWith(Number),
      slowdowns: sql<number>`jsonb_array_length(${runs.slowdowns})`.mapWith(Number),
    })
    .from(runs)
    .leftJoin(boosts, eq(boosts.id, runs.boostId))
    .where(inIds(runs.id, ids))
    .orderBy(asc(runs.id))
    .for("update", { of: runs });
}

/** Each batch's progress and statistics, one row per batch recorded or giving reservations back. */
function batchProgressOf(deltas: readonly RunDelta[]) {
  return deltas.flatMap((d) =>
    d.batches.map((b) => ({
      id: b.batch.id,
      total: b.upTo,
      reserved: b.batch.reserved,
      give_back: b.giveBack,
      ok: b.ok,
      failed: b.failed,
      hits: b.hits,
      bypassed: b.bypassed,
      ms: b.ms,
      hit_ms: b.hitMs,
      miss_ms: b.missMs,
      pops: b.batch.pops,
      not_cached: b.batch.notCached,
      pop_figures: b.batch.popFigures,
      blocked_by: b.batch.blockedBy,
      variant_figures: b.batch.variantFigures,
      answer_headers: b.batch.answerHeaders,
      done: b.done,
      egress: callEgress(b.batch.region),
    })),
  );
}

async function writeBatchProgress(tx: Database, deltas: readonly RunDelta[]): Promise<void> {
  const values = batchProgressOf(deltas);
  if (!values.length) return;
  await tx.execute(sql`
    update ${runBatches} as b set
      total_calls = v.total,
      -- Reservations written meanwhile are never lowered, except when the run gives its unsent ones back.
      dispatched_calls = case when v.give_back then v.reserved else greatest(b.dispatched_calls, v.reserved) end,
      successful_calls = b.successful_calls + v.ok,
      failed_calls = b.failed_calls + v.failed,
      cache_hits = b.cache_hits + v.hits,
      bypassed_calls = b.bypassed_calls + v.bypassed,
      response_time_ms_total = b.response_time_ms_total + v.ms,
      hit_ms_total = b.hit_ms_total + v.hit_ms,
      miss_ms_total = b.miss_ms_total + v.miss_ms,
      pops = v.pops,
      not_cached = v.not_cached,
      pop_figures = v.pop_figures,
      blocked_by = v.blocked_by,
      variant_figures = v.variant_figures,
      answer_headers = v.answer_headers,
      egress_calls = b.egress_calls || jsonb_build_object(v.egress, coalesce((b.egress_calls ->> v.egress)::int, 0) + v.ok + v.failed),
      status = case when v.done then 'done' else b.status end,
      finished_at = case when v.done then now() else b.finished_at end
    from ${recordset(JSON.stringify(values), "id int, total int, reserved int, give_back boolean, ok int, failed int, hits int, bypassed int, ms bigint, hit_ms bigint, miss_ms bigint, pops jsonb, not_cached jsonb, pop_figures jsonb, blocked_by jsonb, variant_figures jsonb, answer_headers jsonb, done boolean, egress text")}
    where b.id = v.id`);
}

/** Everything decided, a statement of each kind: the database's work grows with the tick, not with the runs held. */
async function writeRecording(tx: Database, recording: Recording): Promise<void> {
  const { verifications, resultRows, runValues } = recording;
  if (verifications.length) {
    await tx.execute(sql`
      update ${runResults} as r set verified_cache_status = v.cache_status
      from ${recordset(JSON.stringify(verifications), "run_id int, batch_seq int, call_index int, cache_status text")}
      where r.run_id = v.run_id and r.batch_seq = v.batch_seq and r.call_index = v.call_index`);
  }
  if (resultRows.length) {
    await tx.execute(sql`
      insert into ${runResults} (run_id, batch_seq, call_index, region, url, user_agent, language, cookie_set, encoding, status_code, cache_status, pop, response_time_ms, reason, blocked_by, shared_lifetime_seconds, age_seconds, fresh_until)
      select * from ${recordset(JSON.stringify(resultRows), RESULT_COLUMNS)}
      on conflict do nothing`);
  }
  if (runValues.length) {
    await tx.execute(sql`
      update ${runs} as r set
        recent_outcomes = coalesce(v.recent_outcomes, r.recent_outcomes),
        failure_samples = r.failure_samples || v.samples,
        slowdowns = r.slowdowns || v.slowdowns,
        status = coalesce(v.stop_status, r.status),
        status_message = coalesce(v.stop_message, r.status_message),
        finished_at = case when v.stop_status is null then r.finished_at else now() end,
        results_stored = r.results_stored + v.results
      from ${recordset(JSON.stringify(runValues), "id int, recent_outcomes text, samples jsonb, slowdowns jsonb, stop_status text, stop_message text, results int")}
      where r.id = v.id`);
  }
  await pauseBoostsOfPausedRuns(tx, recording.pausedBoosts);
  // A blocked run has ended as a finished one does: its boost is active again, and its site keeps the verdict.
  await reactivateBoostsOfEndedRuns(tx, recording.blockedBoosts);
  await recordBlockedVerdicts(tx, recording.blockedRuns);
}
