import { and, asc, eq, gt, sql } from "drizzle-orm";
import { boosts, type FailureSample, type PlannedCall, runBatches, runs, type Slowdown, sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { jobDefinitions } from "@/lib/jobs";
import { isCacheHit } from "@/lib/warm/cache-status";
import { type CallOutcome, warmCall } from "@/lib/warm/call";
import { siteConcurrency } from "@/lib/sites/pace";
import { AdaptiveWindow } from "@/lib/warm/adaptive-window";
import { onSiteSlotFreed, releaseSiteSlot, siteHasRoom, siteStartDelay, takeSiteSlot } from "@/lib/warm/site-gate";

/** Auto-pause: a boost run stops when at least half of its last 100 calls failed (after 20 calls at least). */
export const AUTO_PAUSE = { window: 100, minCalls: 20, failureRate: 0.5 } as const;
export const MAX_FAILURE_SAMPLES = 20;
/** Longest pause honoured for a Retry-After; a site asking for more is retried at this pace. */
const MAX_RETRY_AFTER_SECONDS = 60;
/** Outcomes are recorded (statistics and progress, one transaction) this often, or as soon as this many wait. */
export const RECORD_EVERY_MS = 250;
export const RECORD_EVERY_CALLS = 2_000;
/**
 * Reservations (dispatched_calls) run ahead of the calls sent by what the recent pace sends in
 * RESERVE_HORIZON_MS, at most RESERVE_MAX calls (across batches, one statement): a slow site gets
 * exactly the calls that go out now, a fast one a write every hundred calls, made while the window
 * keeps sending. Each recording gives the unsent ones back, so only a crash within RECORD_EVERY_MS
 * of a stall can count calls the site never saw (as interrupted), RESERVE_MAX at most.
 */
const RESERVE_HORIZON_MS = 20;
const RESERVE_MAX = 200;
/** The pace is measured over this long. */
const PACE_WINDOW_MS = 200;
/** Batches read from the database at a time, ahead of the window. */
const LOAD_BATCHES = 40;
/** The longest a run.batch job warms before handing over to the next one (well within the job's expiry). */
const MAX_JOB_MS = 20_000;

/** Slowdowns kept per run: the first ones tell the story, and a flapping site must not grow the row. */
const MAX_SLOWDOWNS = 50;

/**
 * Each run's adaptive window, kept for the run's life in this process (a run hands over from one
 * run.batch job to the next every few seconds; its pace must not start over each time).
 */
const adaptiveWindows = new Map<number, AdaptiveWindow>();

/** A third of the run.batch job's expiry (PREHEAT_JOB_EXPIRE_SECONDS overrides it, as in lib/worker/embedded.ts), 20 s at most. */
function jobBudgetMs(): number {
  const expireSeconds = Number(process.env.PREHEAT_JOB_EXPIRE_SECONDS) || jobDefinitions["run.batch"].expireInSeconds;
  return Math.max(500, Math.min(MAX_JOB_MS, (expireSeconds * 1000) / 3));
}

type Run = typeof runs.$inferSelect;
/** What the engine needs of the site: its limits, service-wide. */
type SitePace = { id: number; concurrency: number; requestsPerSecond: number | null };
type BatchRow = typeof runBatches.$inferSelect;

const INTERRUPTED: CallOutcome = { ok: false, status: null, ms: 0, cache: null, error: "interrupted: the worker stopped while this call was in flight", retryAfter: null };

function pauseMessage(window: string): string {
  const failed = [...window].filter((c) => c === "1").length;
  return `Paused: ${failed} of the last ${window.length} calls failed (the limit is ${AUTO_PAUSE.failureRate * 100} %). Trigger the boost or update it to resume, or set ignore_errors.`;
}

function shouldPause(window: string): boolean {
  const failures = [...window].filter((c) => c === "1").length;
  return window.length >= AUTO_PAUSE.minCalls && failures / window.length >= AUTO_PAUSE.failureRate;
}

/**
 * A batch being warmed. Calls [0, recorded) have their outcomes in the database, [recorded, next)
 * were handed to the network (some answered, waiting to be recorded), [next, reserved) are reserved
 * (dispatched_calls) and about to go out.
 */
class BatchState {
  readonly id: number;
  readonly calls: PlannedCall[];
  readonly region: string;
  recorded: number;
  next: number;
  reserved: number;
  /** Outcomes of calls [recorded, next), by call index; recorded in call order. */
  readonly outcomes = new Map<number, CallOutcome>();
  readonly pops: Record<string, number>;

  constructor(row: BatchRow) {
    this.id = row.id;
    this.calls = row.calls;
    this.region = row.region;
    this.recorded = row.totalCalls;
    this.pops = { ...row.pops };
    // Calls handed to the network by a worker that died: the site saw them, so they count once, as failed.
    for (let i = row.totalCalls; i < row.dispatchedCalls; i++) this.outcomes.set(i, INTERRUPTED);
    this.next = this.reserved = Math.max(row.totalCalls, row.dispatchedCalls);
  }

  get sent() {
    return this.next >= this.calls.length;
  }
}

/**
 * Warms a run's pending batches through a sliding window of `siteConcurrency()` calls (no lockstep:
 * a call goes out as soon as one returns), from one batch to the next, until the job's time budget
 * is spent. Statistics are recorded every RECORD_EVERY_MS in one transaction with the batches'
 * progress; dispatched_calls is written before calls go out, so a crash never sends a call twice.
 */
class RunWarmer {
  private readonly batches: BatchState[] = []; // loaded, not recorded to the end; in seq order
  private lastSeq = -1;
  private exhausted = false; // no pending batch left to load
  private inFlight = 0;
  private readonly adaptive: AdaptiveWindow;
  private slowdowns: Slowdown[] = [];
  private notBefore = 0;
  private waiting: (() => void) | undefined;
  private unrecorded = 0;
  private lastRecord = performance.now();
  /** Stop sending: "budget" (hand over to the next job) or "stopped" (paused here or elsewhere). */
  private halt: "budget" | "stopped" | undefined;
  /** The in-memory auto-pause window tripped: send nothing until the database has decided. */
  private pauseCheck = false;
  private window: string;
  private sentCount = 0;
  /** Calls per ms over the last complete PACE_WINDOW_MS. */
  private pace = 0;
  private reserving: Promise<void> | undefined;
  private paceSince = performance.now();
  private sentAtPaceSince = 0;
  private readonly deadline = performance.now() + jobBudgetMs();

  constructor(
    private readonly db: Database,
    private readonly run: Run,
    private readonly site: SitePace,
    private readonly canPause: boolean,
  ) {
    this.window = run.recentOutcomes;
    let adaptive = adaptiveWindows.get(run.id);
    if (!adaptive) adaptiveWindows.set(run.id, (adaptive = new AdaptiveWindow(site.concurrency)));
    this.adaptive = adaptive;
  }

  /** Calls this run may have in flight now: its adaptive window, within the site's limit. */
  private get limit(): number {
    return Math.min(this.adaptive.window, this.site.concurrency);
  }

  private noteChange(change: { reason: string; concurrency: number } | undefined) {
    if (change) this.slowdowns.push({ at: new Date().toISOString(), reason: change.reason, concurrency: change.concurrency });
  }

  private wake() {
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.();
  }

  private measurePace(now: number) {
    if (now - this.paceSince < PACE_WINDOW_MS) return;
    this.pace = (this.sentCount - this.sentAtPaceSince) / (now - this.paceSince);
    this.paceSince = now;
    this.sentAtPaceSince = this.sentCount;
  }

  private sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => this.wake(), ms);
      this.waiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async load(): Promise<void> {
    if (this.exhausted) return;
    const rows = await this.db
      .select()
      .from(runBatches)
      .where(and(eq(runBatches.runId, this.run.id), eq(runBatches.status, "pending"), gt(runBatches.seq, this.lastSeq)))
      .orderBy(asc(runBatches.seq))
      .limit(LOAD_BATCHES);
    if (rows.length < LOAD_BATCHES) this.exhausted = true;
    for (const row of rows) {
      this.lastSeq = row.seq;
      const batch = new BatchState(row);
      this.unrecorded += batch.outcomes.size;
      this.batches.push(batch);
    }
  }

  /** The first loaded batch with calls left to send, loading more when none is. */
  private async sendable(): Promise<BatchState | undefined> {
    for (;;) {
      const batch = this.batches.find((b) => !b.sent);
      if (batch || this.exhausted) return batch;
      await this.load();
    }
  }

  /** Calls reserved and not sent yet, across the loaded batches. */
  private reservedAhead(): number {
    let ahead = 0;
    for (const batch of this.batches) ahead += batch.reserved - batch.next;
    return ahead;
  }

  /** How far reservations should run ahead: the free slots, or the pace's horizon when that is more. */
  private reserveTarget(free: number): number {
    this.measurePace(performance.now());
    return Math.max(free, Math.min(RESERVE_MAX, Math.floor(this.pace * RESERVE_HORIZON_MS)));
  }

  /** Extends dispatched_calls, batch after batch, until `target` calls are reserved ahead; one statement. */
  private reserve(target: number): Promise<void> {
    this.reserving ??= (async () => {
      let missing = target - this.reservedAhead();
      const extended: { batch: BatchState; upTo: number }[] = [];
      for (const batch of this.batches) {
        if (missing <= 0) break;
        if (batch.reserved >= batch.calls.length) continue;
        const upTo = Math.min(batch.calls.length, batch.reserved + missing);
        missing -= upTo - batch.reserved;
        extended.push({ batch, upTo });
      }
      if (!extended.length) return;
      const values = extended.map(({ batch, upTo }) => sql`(${batch.id}::int, ${upTo}::int)`);
      await this.db.execute(sql`update ${runBatches} as b set dispatched_calls = v.up_to from (values ${sql.join(values, sql`, `)}) as v(id, up_to) where b.id = v.id`);
      for (const { batch, upTo } of extended) batch.reserved = upTo;
    })().finally(() => (this.reserving = undefined));
    return this.reserving;
  }

  /** Room for one more call: in this run's window, and at the site (other runs may be warming it too). */
  private hasRoom(): boolean {
    return this.inFlight < this.limit && siteHasRoom(this.run.siteId, this.site.concurrency);
  }

  private send(batch: BatchState) {
    const index = batch.next++;
    this.inFlight++;
    takeSiteSlot(this.run.siteId, this.site.requestsPerSecond);
    this.sentCount++;
    warmCall(batch.calls[index]!, batch.region).then((outcome) => this.settled(batch, index, outcome));
  }

  private settled(batch: BatchState, index: number, outcome: CallOutcome) {
    this.inFlight--;
    releaseSiteSlot(this.run.siteId);
    batch.outcomes.set(index, outcome);
    this.unrecorded++;
    if (this.canPause) {
      this.window = (this.window + (outcome.ok ? "0" : "1")).slice(-AUTO_PAUSE.window);
      if (!outcome.ok && shouldPause(this.window)) this.pauseCheck = true;
    }
    if (outcome.retryAfter !== null && outcome.retryAfter >= 0) {
      // The site asked us to slow down: one call at a time, after the pause it asked for.
      this.noteChange(this.adaptive.retryAfter(outcome.retryAfter, outcome.status));
      this.notBefore = Math.max(this.notBefore, Date.now() + Math.min(outcome.retryAfter, MAX_RETRY_AFTER_SECONDS) * 1000);
    } else if (outcome !== INTERRUPTED) {
      this.noteChange(this.adaptive.observe(outcome.ms));
    }
    this.wake();
  }

  /**
   * Records, for each batch, the outcomes of its calls in call order up to the first still in
   * flight: batch statistics and progress, the run's error window and failure samples, in one
   * transaction, and gives back the reservations not sent yet (dispatched_calls = calls sent).
   * Returns false when the run must stop (paused here, or stopped elsewhere).
   */
  private async record(): Promise<boolean> {
    // A reservation being written must land before this gives the unsent calls back.
    if (this.reserving) await this.reserving;
    this.lastRecord = performance.now();
    type Delta = { batch: BatchState; upTo: number; ok: number; failed: number; hits: number; bypassed: number; ms: number; done: boolean };
    const deltas: Delta[] = [];
    const samples: FailureSample[] = [];
    let outcomesWindow = "";
    for (const batch of this.batches) {
      let upTo = batch.recorded;
      const delta: Delta = { batch, upTo, ok: 0, failed: 0, hits: 0, bypassed: 0, ms: 0, done: false };
      for (let outcome = batch.outcomes.get(upTo); outcome; outcome = batch.outcomes.get(++upTo)) {
        batch.outcomes.delete(upTo);
        const call = batch.calls[upTo]!;
        if (outcome.ok) delta.ok++;
        else {
          delta.failed++;
          samples.push({ url: call.url, region: batch.region, user_agent: call.user_agent, language: call.language, status: outcome.status, error: outcome.error ?? "failed" });
        }
        // Interrupted calls say nothing about the site's health: they stay out of the auto-pause window.
        if (outcome !== INTERRUPTED) outcomesWindow += outcome.ok ? "0" : "1";
        if (outcome.cache && isCacheHit(outcome.cache)) delta.hits++;
        if (outcome.cache?.verdict === "bypass" || outcome.cache?.verdict === "dynamic") delta.bypassed++;
        if (outcome.cache?.pop) batch.pops[outcome.cache.pop] = (batch.pops[outcome.cache.pop] ?? 0) + 1;
        delta.ms += Math.round(outcome.ms);
      }
      delta.upTo = upTo;
      delta.done = upTo === batch.calls.length;
      const giveBack = batch.reserved > batch.next;
      batch.reserved = batch.next;
      if (upTo > batch.recorded || giveBack) deltas.push(delta);
    }
    const recordedNow = deltas.reduce((n, d) => n + d.upTo - d.batch.recorded, 0);
    const slowdowns = this.slowdowns;
    this.slowdowns = [];
    const running = await this.db.transaction(async (tx) => {
      const [run] = await tx.select().from(runs).where(eq(runs.id, this.run.id)).for("update");
      if (!run) return false;
      if (deltas.length) {
        const values = deltas.map(
          (d) =>
            sql`(${d.batch.id}::int, ${d.upTo}::int, ${d.batch.reserved}::int, ${d.ok}::int, ${d.failed}::int, ${d.hits}::int, ${d.bypassed}::int, ${d.ms}::bigint, ${JSON.stringify(d.batch.pops)}::jsonb, ${d.done}::boolean)`,
        );
        await tx.execute(sql`
          update ${runBatches} as b set
            total_calls = v.total,
            dispatched_calls = v.reserved,
            successful_calls = b.successful_calls + v.ok,
            failed_calls = b.failed_calls + v.failed,
            cache_hits = b.cache_hits + v.hits,
            bypassed_calls = b.bypassed_calls + v.bypassed,
            response_time_ms_total = b.response_time_ms_total + v.ms,
            pops = v.pops,
            status = case when v.done then 'done' else b.status end,
            finished_at = case when v.done then now() else b.finished_at end
          from (values ${sql.join(values, sql`, `)}) as v(id, total, reserved, ok, failed, hits, bypassed, ms, pops, done)
          where b.id = v.id`);
      }
      const window = (run.recentOutcomes + outcomesWindow).slice(-AUTO_PAUSE.window);
      const pause = this.canPause && run.status === "running" && shouldPause(window);
      if (recordedNow || pause || slowdowns.length) {
        await tx
          .update(runs)
          .set({
            recentOutcomes: window,
            ...(slowdowns.length && run.slowdowns.length < MAX_SLOWDOWNS ? { slowdowns: [...run.slowdowns, ...slowdowns].slice(0, MAX_SLOWDOWNS) } : {}),
            ...(samples.length && run.failureSamples.length < MAX_FAILURE_SAMPLES ? { failureSamples: [...run.failureSamples, ...samples].slice(0, MAX_FAILURE_SAMPLES) } : {}),
            ...(pause ? { status: "paused", statusMessage: pauseMessage(window), finishedAt: new Date() } : {}),
          })
          .where(eq(runs.id, this.run.id));
        if (pause && run.boostId) await tx.update(boosts).set({ status: "paused", updatedAt: new Date() }).where(eq(boosts.id, run.boostId));
      }
      this.window = window;
      return run.status === "running" && !pause;
    });
    for (const d of deltas) d.batch.recorded = d.upTo;
    this.unrecorded -= recordedNow;
    while (this.batches[0] && this.batches[0].recorded === this.batches[0].calls.length) this.batches.shift();
    return running;
  }

  private recordDue(): boolean {
    if (this.unrecorded >= RECORD_EVERY_CALLS) return true;
    if (performance.now() - this.lastRecord < RECORD_EVERY_MS) return false;
    return this.unrecorded > 0 || this.batches.some((b) => b.reserved > b.next);
  }

  async warm(): Promise<"more" | "finished" | "stopped"> {
    await this.load();
    // Wakes the loop to record what returned even when the calls left in flight hang.
    const ticker = setInterval(() => this.wake(), RECORD_EVERY_MS);
    const unsubscribe = onSiteSlotFreed(this.run.siteId, () => this.wake());
    try {
      for (;;) {
        // Fill the window.
        while (!this.halt && !this.pauseCheck && this.hasRoom()) {
          if (performance.now() >= this.deadline) {
            this.halt = "budget";
            break;
          }
          const batch = await this.sendable();
          if (!batch) break;
          if (batch.next >= batch.reserved) {
            await this.reserve(this.reserveTarget(this.limit - this.inFlight));
            continue;
          }
          const wait = this.notBefore - Date.now();
          if (wait > 0) {
            await this.sleep(wait);
            continue;
          }
          // The site's own rate cap (max_requests_per_second), shared by every run warming it here.
          const paced = siteStartDelay(this.run.siteId, this.site.requestsPerSecond);
          if (paced > 0) {
            await this.sleep(paced);
            continue;
          }
          // Another run may have taken the site's last slot while this one awaited.
          if (!siteHasRoom(this.run.siteId, this.site.concurrency)) break;
          this.send(batch);
          // At a fast pace, the next reservation is written while the window keeps sending.
          if (!this.reserving) {
            const target = this.reserveTarget(0);
            // A failure here is not lost: the next reservation the loop waits for is written again, and throws.
            if (target > this.limit && this.reservedAhead() < target / 2) this.reserve(target).catch(() => {});
          }
        }
        if (this.inFlight === 0) {
          // Idle: everything sent has returned. Done, handing over, or the window asks the database whether to pause.
          const more = Boolean(await this.sendable());
          if (!more || this.halt || this.pauseCheck) {
            const running = await this.record();
            this.pauseCheck = false;
            if (!running) return "stopped";
            if (!more) return "finished";
            if (this.halt) return "more";
          } else if (!this.hasRoom()) {
            // Another run holds the site's every slot: wait for one (or hand over at the deadline).
            if (performance.now() >= this.deadline) this.halt = "budget";
            else await this.sleep();
          }
          continue;
        }
        if (this.recordDue() && !(await this.record())) this.halt = "stopped";
        // The window is as full as it may be: wait for a call to return (or the ticker).
        if (this.inFlight > 0) await this.sleep();
      }
    } finally {
      clearInterval(ticker);
      unsubscribe();
    }
  }
}

/**
 * Warms the run's pending batches, one after the other, for up to a third of the job's expiry.
 * `more`: batches wait for the next job; `finished`: none left; `stopped`: paused or gone.
 */
export async function warmNextBatch(db: Database, runId: number): Promise<"more" | "finished" | "stopped"> {
  const [found] = await db.select({ run: runs, site: sites }).from(runs).innerJoin(sites, eq(sites.id, runs.siteId)).where(eq(runs.id, runId));
  if (!found || found.run.status !== "running") {
    adaptiveWindows.delete(runId);
    return "stopped";
  }
  const { run, site } = found;
  const [boost] = run.boostId ? await db.select({ ignoreErrors: boosts.ignoreErrors }).from(boosts).where(eq(boosts.id, run.boostId)) : [];
  // Auto-pause belongs to boosts; an on-demand warm runs to its end.
  const canPause = Boolean(boost && !boost.ignoreErrors);
  const pace = { id: site.id, concurrency: siteConcurrency(site), requestsPerSecond: site.maxRequestsPerSecond };
  const next = await new RunWarmer(db, run, pace, canPause).warm();
  if (next !== "more") adaptiveWindows.delete(runId);
  return next;
}
