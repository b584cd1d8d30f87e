import { and, asc, eq, sql } from "drizzle-orm";
import { boosts, type FailureSample, runBatches, runs } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { isCacheHit } from "@/lib/warm/cache-status";
import { type CallOutcome, warmCall } from "@/lib/warm/call";

/** Auto-pause: a boost run stops when at least half of its last 100 calls failed (after 20 calls at least). */
export const AUTO_PAUSE = { window: 100, minCalls: 20, failureRate: 0.5 } as const;
export const MAX_FAILURE_SAMPLES = 20;
/** Longest pause honoured for a Retry-After; a site asking for more is retried at this pace. */
const MAX_RETRY_AFTER_SECONDS = 60;

export function siteConcurrency(): number {
  const configured = Number(process.env.PREHEAT_SITE_CONCURRENCY);
  return Number.isInteger(configured) && configured > 0 ? configured : 4;
}

type Batch = typeof runBatches.$inferSelect;
type Run = typeof runs.$inferSelect;
type WaveResult = { outcome: CallOutcome; url: string; userAgent: string; language: string | null };

function pauseMessage(window: string): string {
  const failed = [...window].filter((c) => c === "1").length;
  return `Paused: ${failed} of the last ${window.length} calls failed (the limit is ${AUTO_PAUSE.failureRate * 100} %). Trigger the boost or update it to resume, or set ignore_errors.`;
}

/**
 * Records one wave of outcomes: batch statistics, the run's error window and failure samples, in
 * one transaction with the batch's progress, so that a retried batch never counts a call twice.
 * Returns false when the run must stop (paused here, or stopped elsewhere).
 */
async function record(db: Database, runId: number, batchId: number, results: WaveResult[], done: number, region: string, canPause: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(runs).where(eq(runs.id, runId)).for("update");
    const [batch] = await tx.select().from(runBatches).where(eq(runBatches.id, batchId)).for("update");
    if (!run || !batch) return false;
    const pops = { ...batch.pops };
    let ok = 0;
    let hits = 0;
    let bypassed = 0;
    let ms = 0;
    const samples: FailureSample[] = [];
    for (const { outcome, url, userAgent, language } of results) {
      if (outcome.ok) ok++;
      else samples.push({ url, region, user_agent: userAgent, language, status: outcome.status, error: outcome.error ?? "failed" });
      if (outcome.cache && isCacheHit(outcome.cache)) hits++;
      if (outcome.cache?.verdict === "bypass" || outcome.cache?.verdict === "dynamic") bypassed++;
      if (outcome.cache?.pop) pops[outcome.cache.pop] = (pops[outcome.cache.pop] ?? 0) + 1;
      ms += Math.round(outcome.ms);
    }
    await tx
      .update(runBatches)
      .set({
        totalCalls: done,
        dispatchedCalls: sql`greatest(${runBatches.dispatchedCalls}, ${done})`,
        successfulCalls: sql`${runBatches.successfulCalls} + ${ok}`,
        failedCalls: sql`${runBatches.failedCalls} + ${results.length - ok}`,
        cacheHits: sql`${runBatches.cacheHits} + ${hits}`,
        bypassedCalls: sql`${runBatches.bypassedCalls} + ${bypassed}`,
        responseTimeMsTotal: sql`${runBatches.responseTimeMsTotal} + ${ms}`,
        pops,
      })
      .where(eq(runBatches.id, batchId));
    const window = (run.recentOutcomes + results.map((r) => (r.outcome.ok ? "0" : "1")).join("")).slice(-AUTO_PAUSE.window);
    const failures = [...window].filter((c) => c === "1").length;
    const pause = canPause && run.status === "running" && window.length >= AUTO_PAUSE.minCalls && failures / window.length >= AUTO_PAUSE.failureRate;
    await tx
      .update(runs)
      .set({
        recentOutcomes: window,
        failureSamples: [...run.failureSamples, ...samples].slice(0, MAX_FAILURE_SAMPLES),
        ...(pause ? { status: "paused", statusMessage: pauseMessage(window), finishedAt: new Date() } : {}),
      })
      .where(eq(runs.id, runId));
    if (pause && run.boostId) await tx.update(boosts).set({ status: "paused", updatedAt: new Date() }).where(eq(boosts.id, run.boostId));
    return run.status === "running" && !pause;
  });
}

/** Calls that were in flight when a worker died: the site saw them, so they count once, as failed. */
async function recordInterrupted(db: Database, run: Run, batch: Batch, canPause: boolean): Promise<boolean> {
  const lost = batch.calls.slice(batch.totalCalls, batch.dispatchedCalls);
  if (!lost.length) return true;
  const results = lost.map((call) => ({
    outcome: { ok: false, status: null, ms: 0, cache: null, error: "interrupted: the worker stopped while this call was in flight", retryAfter: null },
    url: call.url,
    userAgent: call.user_agent,
    language: call.language,
  }));
  return record(db, run.id, batch.id, results, batch.dispatchedCalls, batch.region, canPause);
}

async function warmBatch(db: Database, run: Run, batch: Batch): Promise<boolean> {
  const [boost] = run.boostId ? await db.select({ ignoreErrors: boosts.ignoreErrors }).from(boosts).where(eq(boosts.id, run.boostId)) : [];
  // Auto-pause belongs to boosts; an on-demand warm runs to its end.
  const canPause = Boolean(boost && !boost.ignoreErrors);
  if (!(await recordInterrupted(db, run, batch, canPause))) return false;
  let index = Math.max(batch.totalCalls, batch.dispatchedCalls);
  let concurrency = siteConcurrency();
  while (index < batch.calls.length) {
    const wave = batch.calls.slice(index, index + concurrency);
    await db.update(runBatches).set({ dispatchedCalls: index + wave.length }).where(eq(runBatches.id, batch.id));
    const outcomes = await Promise.all(wave.map((call) => warmCall(call, batch.region)));
    index += wave.length;
    const results = outcomes.map((outcome, i) => ({ outcome, url: wave[i]!.url, userAgent: wave[i]!.user_agent, language: wave[i]!.language }));
    if (!(await record(db, run.id, batch.id, results, index, batch.region, canPause))) return false;
    const retryAfter = Math.max(-1, ...outcomes.map((o) => o.retryAfter ?? -1));
    if (retryAfter >= 0) {
      // The site asked us to slow down: one call at a time, after the pause it asked for.
      concurrency = 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, MAX_RETRY_AFTER_SECONDS) * 1000));
    }
  }
  await db.update(runBatches).set({ status: "done", finishedAt: new Date() }).where(eq(runBatches.id, batch.id));
  return true;
}

/** Warms the run's next pending batch. `more`: another batch waits; `finished`: none left; `stopped`: paused or gone. */
export async function warmNextBatch(db: Database, runId: number): Promise<"more" | "finished" | "stopped"> {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  if (!run || run.status !== "running") return "stopped";
  const pending = await db
    .select()
    .from(runBatches)
    .where(and(eq(runBatches.runId, runId), eq(runBatches.status, "pending")))
    .orderBy(asc(runBatches.seq))
    .limit(2);
  if (!pending.length) return "finished";
  if (!(await warmBatch(db, run, pending[0]!))) return "stopped";
  return pending.length > 1 ? "more" : "finished";
}
