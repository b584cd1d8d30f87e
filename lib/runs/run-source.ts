import type { BatchPurpose, PlannedCall, PopFigures } from "@/lib/core/calls";
import type { runBatches, runs } from "@/drizzle/schema";
import type { FailureSample, Slowdown } from "@/lib/core/run-figures";
import type { AdaptiveWindow } from "@/lib/warm/adaptive-window";
import type { CallOutcome } from "@/lib/warm/call";
import type { FreshnessReading } from "@/lib/warm/freshness";
import type { BlockVendor } from "@/lib/core/block-vendors";
import type { NotCachedReason } from "@/lib/core/not-cached";
import type { Ticket, WarmSource } from "@/lib/warm/engine";
import { PLAIN_REQUEST, type RunRequest } from "@/lib/warm/run-request";
import { BLOCKED_STOP, clearedOfBlocks } from "./blocked";
import { variantKey } from "./calls";

/** Auto-pause: a boost run stops when at least half of its last 100 calls failed (after 20 calls at least). */
export const AUTO_PAUSE = { window: 100, minCalls: 20, failureRate: 0.5 } as const;
export const MAX_FAILURE_SAMPLES = 20;
/** Slowdowns kept per run: the first ones tell the story, and a flapping site must not grow the row. */
export const MAX_SLOWDOWNS = 50;
/** Longest pause honoured for a Retry-After; a site asking for more is retried at this pace. */
const MAX_RETRY_AFTER_SECONDS = 60;
/**
 * Reservations (dispatched_calls) run ahead of the calls sent by what the recent pace sends in
 * RESERVE_HORIZON_MS, at most RESERVE_MAX calls: a slow site gets exactly the calls that go out
 * now, a fast one a write every hundred calls. A run that stops or hands over gives the unsent ones
 * back, so only a crash can count calls the site never saw (as interrupted), RESERVE_MAX at most.
 */
const RESERVE_HORIZON_MS = 50;
const RESERVE_MAX = 200;
/** The pace is measured over this long. */
const PACE_WINDOW_MS = 200;

type Run = typeof runs.$inferSelect;
export type BatchRow = typeof runBatches.$inferSelect;

const INTERRUPTED: CallOutcome = {
  ok: false,
  status: null,
  ms: 0,
  cache: null,
  error: "interrupted: the worker stopped while this call was in flight",
  retryAfter: null,
  reason: "http_error",
  freshness: null,
};

export function pauseMessage(window: string): string {
  const failed = [...window].filter((c) => c === "1").length;
  return `Paused: ${failed} of the last ${window.length} calls failed (the limit is ${AUTO_PAUSE.failureRate * 100} %). Trigger the boost or update it to resume, or set ignore_errors.`;
}

export function shouldPause(window: string): boolean {
  const failures = [...window].filter((c) => c === "1").length;
  return window.length >= AUTO_PAUSE.minCalls && failures / window.length >= AUTO_PAUSE.failureRate;
}

/**
 * A batch being warmed. Calls [0, recorded) have their outcomes in the database, [recorded, next)
 * were handed to the network (some answered, waiting to be recorded), [next, reserved) are reserved
 * (dispatched_calls) and about to go out.
 */
export class BatchState {
  readonly id: number;
  readonly calls: PlannedCall[];
  readonly region: string;
  readonly seq: number;
  readonly purpose: BatchPurpose;
  /** Epoch ms before which none of its calls leaves (0: no wait). */
  readonly notBefore: number;
  recorded: number;
  next: number;
  reserved: number;
  /** Outcomes of calls [recorded, next), by call index; recorded in call order. */
  readonly outcomes = new Map<number, CallOutcome>();
  readonly pops: Record<string, number>;
  /** Written whole with each recording, like pops: a batch is worked by one worker at a time. */
  readonly notCached: Record<string, number>;
  readonly popFigures: Record<string, PopFigures>;
  /** Calls answered by bot protection, by vendor: written whole, like pops. */
  readonly blockedBy: Record<string, number>;
  /** By variantKey: each variant's calls and hits, for the per-variant figures. */
  readonly variantFigures: Record<string, { calls: number; hits: number }>;
  /** What the answers said of their cache key (run_batches.answer_headers): written whole, like pops. */
  readonly answerHeaders: Record<string, number>;

  constructor(row: BatchRow) {
    this.id = row.id;
    this.calls = row.calls;
    this.region = row.region;
    this.seq = row.seq;
    this.purpose = row.purpose;
    this.notBefore = row.notBefore?.getTime() ?? 0;
    this.recorded = row.totalCalls;
    this.pops = { ...row.pops };
    this.notCached = { ...row.notCached };
    this.popFigures = structuredClone(row.popFigures);
    this.blockedBy = { ...row.blockedBy };
    this.variantFigures = structuredClone(row.variantFigures);
    this.answerHeaders = { ...row.answerHeaders };
    // Calls handed to the network by a worker that died: the site saw them, so they count once, as failed.
    for (let i = row.totalCalls; i < row.dispatchedCalls; i++) this.outcomes.set(i, INTERRUPTED);
    this.next = this.reserved = Math.max(row.totalCalls, row.dispatchedCalls);
  }

  get sent() {
    return this.next >= this.calls.length;
  }
}

/** A call of the run as run_results stores it: `reason` null for a cache hit. */
export type ResultRow = {
  batch_seq: number;
  call_index: number;
  region: string;
  url: string;
  user_agent: string;
  language: string | null;
  cookie_set: string | null;
  encoding: string | null;
  status_code: number | null;
  cache_status: string | null;
  pop: string | null;
  response_time_ms: number;
  reason: NotCachedReason | null;
  blocked_by: BlockVendor | null;
  /** From the answer's shared-cache reading (lib/warm/freshness.ts); fresh_until as an ISO timestamp. */
  shared_lifetime_seconds: number | null;
  age_seconds: number | null;
  fresh_until: string | null;
};
/** A verification's answer, for the run_results row of the call it asked again. */
export type VerificationRow = { batch_seq: number; call_index: number; cache_status: string | null };

/**
 * A call asked again (a verification, for the call it asks again) or asked as a visitor (a visitor
 * check, its reasons and blocks by batch): counted apart from the run's calls.
 */
function countCheck(delta: BatchDelta, call: PlannedCall, outcome: CallOutcome): void {
  const { batch } = delta;
  if (outcome.ok) delta.ok++;
  else delta.failed++;
  if (outcome.reason === null) delta.hits++;
  else if (batch.purpose === "visitors") {
    batch.notCached[outcome.reason] = (batch.notCached[outcome.reason] ?? 0) + 1;
    if (outcome.blockedBy) batch.blockedBy[outcome.blockedBy] = (batch.blockedBy[outcome.blockedBy] ?? 0) + 1;
  }
  delta.ms += Math.round(outcome.ms);
  if (call.of) delta.verifications.push({ batch_seq: call.of.seq, call_index: call.of.index, cache_status: outcome.cache?.verdict ?? null });
}

/** Distinct names kept per batch: a site setting cookies with random names must not grow the row. */
const MAX_ANSWER_HEADER_KEYS = 100;

/** The cache key an answer told of: Vary's headers and the cookies set, counted per answer. */
function countAnswer(batch: BatchState, outcome: CallOutcome): void {
  if (!outcome.keyedOn || outcome.blockedBy) return;
  const counts = batch.answerHeaders;
  counts.answers = (counts.answers ?? 0) + 1;
  const keys = [...new Set([...outcome.keyedOn.vary.map((name) => `vary:${name}`), ...outcome.keyedOn.setCookies.map((name) => `set-cookie:${name.slice(0, 64)}`)])];
  for (const key of keys) {
    if (counts[key] === undefined && Object.keys(counts).length >= MAX_ANSWER_HEADER_KEYS) continue;
    counts[key] = (counts[key] ?? 0) + 1;
  }
}

/** A warming call of the batch and what its answer said of its freshness. */
type WarmedCall = { index: number; call: PlannedCall; reading: FreshnessReading | null };

export type BatchDelta = {
  batch: BatchState;
  upTo: number;
  ok: number;
  failed: number;
  hits: number;
  bypassed: number;
  ms: number;
  hitMs: number;
  missMs: number;
  /** Every call, hits included, in call order: the run keeps the first ones (lib/runs/recording-decision.ts). */
  results: ResultRow[];
  /** In a verification batch: what each call asked again answered this time. */
  verifications: VerificationRow[];
  /** Each warming call answered, with its answer's shared-cache reading: a keep-warm boost's entries (lib/freshness/entries.ts). */
  warmed: WarmedCall[];
  done: boolean;
  giveBack: boolean;
};
/** What the cache did with one call of the run: hit or reason, its PoP, and the row that lists it. */
function countCache(delta: BatchDelta, index: number, call: PlannedCall, outcome: CallOutcome, ms: number): void {
  const { batch } = delta;
  delta.warmed.push({ index, call, reading: outcome.freshness ?? null });
  const { reason } = outcome;
  const hit = reason === null;
  const miss = reason === "miss";
  const variant = (batch.variantFigures[variantKey(call)] ??= { calls: 0, hits: 0 });
  variant.calls++;
  if (hit) {
    variant.hits++;
    delta.hits++;
    delta.hitMs += ms;
  } else {
    batch.notCached[reason] = (batch.notCached[reason] ?? 0) + 1;
    if (outcome.blockedBy) batch.blockedBy[outcome.blockedBy] = (batch.blockedBy[outcome.blockedBy] ?? 0) + 1;
    if (miss) delta.missMs += ms;
  }
  delta.results.push({
    batch_seq: batch.seq,
    call_index: index,
    region: batch.region,
    url: call.url,
    user_agent: call.user_agent,
    language: call.language,
    cookie_set: call.cookie_set ?? null,
    encoding: call.encoding ?? null,
    status_code: outcome.status,
    cache_status: outcome.cache?.verdict ?? null,
    pop: outcome.cache?.pop ?? null,
    response_time_ms: ms,
    reason,
    blocked_by: outcome.blockedBy ?? null,
    shared_lifetime_seconds: outcome.freshness?.lifetimeSeconds ?? null,
    age_seconds: outcome.freshness?.ageSeconds ?? null,
    fresh_until: outcome.freshness?.freshUntil?.toISOString() ?? null,
  });
  // The figure is one line of the reasons: an error or a cookie answered BYPASS is counted under its own reason.
  if (reason === "cdn_bypass") delta.bypassed++;
  const pop = outcome.cache?.pop;
  if (!pop) return;
  batch.pops[pop] = (batch.pops[pop] ?? 0) + 1;
  const figures = (batch.popFigures[pop] ??= { calls: 0, hits: 0, hit_ms: 0, misses: 0, miss_ms: 0 });
  figures.calls++;
  if (hit) {
    figures.hits++;
    figures.hit_ms += ms;
  } else if (miss) {
    figures.misses++;
    figures.miss_ms += ms;
  }
}

/** What one run has to record now. `blocks`: every warming call recorded, in order, `1` when bot protection answered it. */
export type RunDelta = { source: RunSource; batches: BatchDelta[]; recorded: number; samples: FailureSample[]; outcomes: string; blocks: string; slowdowns: Slowdown[] };

/** A run's region as the worker holds it. */
export function sourceKey(runId: number, region: string): string {
  return `${runId}:${region}`;
}

/**
 * A run's region in the worker's engine: its loaded batches, the calls reserved and sent, the outcomes
 * waiting to be recorded, its adaptive window and its auto-pause window. The engine takes calls
 * from it; the warm loop loads, reserves and records for every run together.
 */
export class RunSource implements WarmSource {
  readonly accountId: number;
  readonly siteId: number;
  readonly runId: number;
  /** A site's changes (issue 58): the engine sends its calls before the site's other runs'. */
  readonly urgent: boolean;
  /** The run's region this source warms (each region is a job of its own). */
  readonly region: string;
  /** sourceKey(runId, region): how the warm loop holds it. */
  readonly key: string;
  readonly batches: BatchState[] = []; // loaded, not recorded to the end; in seq order
  lastSeq = -1;
  exhausted = false; // no pending batch left to load
  inFlight = 0;
  /** Outcomes answered and not recorded yet. */
  unrecorded = 0;
  /** Stop taking calls: "budget" (hand over to the next job) or "stopped" (paused here or elsewhere). */
  halt: "budget" | "stopped" | undefined;
  /** The in-memory auto-pause window tripped: send nothing until the database has decided. */
  pauseCheck = false;
  /** The run's auto-pause window as last recorded, plus what this process saw since. */
  pauseWindow: string;
  /** The run's first calls have been judged for bot protection (lib/runs/blocked.ts): it may send past them. */
  blockJudged = false;
  /** Enough blocked calls came back to stop the run: send nothing until the database has decided. */
  blockCheck = false;
  private blockedSeen = 0;
  /**
   * The run's first warming calls are all this source's to send, in call order (its only region, warmed
   * from its first call on): it judges them itself as they are answered, instead of holding its calls
   * past them until a recording has judged them.
   */
  private seesFirstCalls = false;
  private readonly soleRegion: boolean;
  private warmCallsTaken = 0;
  private clearAmongFirst = 0;
  slowdowns: Slowdown[] = [];
  /** Wants more calls reserved (or batches loaded): the loop writes reservations for every such run at once. */
  wantsReservation = false;
  private notBeforeAt = 0;
  /**
   * Calls reserved and not sent yet, across the loaded batches: kept as they change, because the loop
   * reads every held run's before each reservation it writes (thousands of runs, every few milliseconds).
   */
  private ahead = 0;
  private sentCount = 0;
  private pace = 0;
  private paceSince = performance.now();
  private sentAtPaceSince = 0;

  constructor(
    run: Run,
    region: string,
    accountId: number,
    readonly canPause: boolean,
    readonly adaptive: AdaptiveWindow,
    readonly deadline: number,
    private readonly onActivity: () => void,
    /** It holds until the next recording decides (its first calls judged, or a pause or block to check), with nothing in flight. */
    private readonly onRecordingAwaited: () => void,
    private readonly request: RunRequest = PLAIN_REQUEST,
  ) {
    this.accountId = accountId;
    this.siteId = run.siteId;
    this.runId = run.id;
    this.region = region;
    this.key = sourceKey(run.id, region);
    this.pauseWindow = run.recentOutcomes;
    this.soleRegion = run.regions.length === 1;
    this.urgent = run.trigger === "changes";
  }

  addBatches(rows: BatchRow[], pageSize: number): void {
    if (rows.length < pageSize) this.exhausted = true;
    const first = rows[0];
    if (this.lastSeq === -1 && first) this.seesFirstCalls = this.soleRegion && first.seq === 0 && first.dispatchedCalls === 0 && first.totalCalls === 0;
    for (const row of rows) {
      this.lastSeq = row.seq;
      const batch = new BatchState(row);
      // A verification batch waits until the cache has had time to store what the first pass fetched.
      this.notBeforeAt = Math.max(this.notBeforeAt, batch.notBefore);
      this.unrecorded += batch.outcomes.size;
      this.batches.push(batch);
    }
  }

  window(): number {
    return this.halt || this.pauseCheck || this.blockHold ? 0 : this.adaptive.window;
  }

  /** Until its first calls are judged, a run sends no more of them than the rule reads, and none once enough were blocked. */
  private get blockHold(): boolean {
    return !this.blockJudged && (this.blockCheck || this.sentCount >= BLOCKED_STOP.firstCalls);
  }

  notBefore(): number {
    return this.notBeforeAt;
  }

  /** Whether every loaded call is sent and no batch is left to load. */
  get allSent(): boolean {
    return this.exhausted && this.batches.every((b) => b.sent);
  }

  /** Whether everything sent has returned and is recorded. */
  get settled(): boolean {
    return this.inFlight === 0 && this.unrecorded === 0 && this.ahead === 0;
  }

  take(): Ticket | undefined {
    if (performance.now() >= this.deadline) this.halt ??= "budget";
    if (this.halt || this.pauseCheck || this.blockHold) return undefined;
    for (const batch of this.batches) {
      if (batch.sent) continue;
      if (batch.next >= batch.reserved) return this.want();
      const index = batch.next++;
      this.ahead--;
      this.sentCount++;
      const ordinal = batch.purpose === "warm" ? this.warmCallsTaken++ : Infinity;
      // A fast run writes its next reservations while the window keeps sending.
      const ahead = this.paceAhead();
      if (ahead > this.adaptive.window && batch.reserved - batch.next < ahead / 2) this.want();
      return { call: batch.calls[index]!, region: batch.region, request: this.request, settle: (outcome) => this.settle(batch, index, outcome, ordinal) };
    }
    if (!this.exhausted) this.want(); // more batches to load
    return undefined;
  }

  /** Asks the loop for reservations (or batches): it writes them for every run that asked, at once. */
  private want(): undefined {
    this.wantsReservation = true;
    this.onActivity();
    return undefined;
  }

  private settle(batch: BatchState, index: number, outcome: CallOutcome, ordinal: number) {
    batch.outcomes.set(index, outcome);
    this.unrecorded++;
    if (!this.blockJudged && outcome.blockedBy && ++this.blockedSeen >= BLOCKED_STOP.blocked) this.blockCheck = true;
    if (this.seesFirstCalls && ordinal < BLOCKED_STOP.firstCalls && !outcome.blockedBy && clearedOfBlocks(++this.clearAmongFirst)) this.blockJudged = true;
    if (this.canPause) {
      this.pauseWindow = (this.pauseWindow + (outcome.ok ? "0" : "1")).slice(-AUTO_PAUSE.window);
      if (!outcome.ok && shouldPause(this.pauseWindow)) this.pauseCheck = true;
    }
    if (outcome.retryAfter !== null && outcome.retryAfter >= 0) {
      // The site asked us to slow down: one call at a time, after the pause it asked for.
      this.noteChange(this.adaptive.retryAfter(outcome.retryAfter, outcome.status));
      this.notBeforeAt = Math.max(this.notBeforeAt, Date.now() + Math.min(outcome.retryAfter, MAX_RETRY_AFTER_SECONDS) * 1000);
    } else {
      this.noteChange(this.adaptive.observe(outcome.ms));
    }
    if (this.inFlight === 0 && (this.pauseCheck || this.blockCheck || this.blockHold)) this.onRecordingAwaited();
    this.onActivity();
  }

  private noteChange(change: { reason: string; concurrency: number } | undefined) {
    if (change) this.slowdowns.push({ at: new Date().toISOString(), reason: change.reason, concurrency: change.concurrency });
  }

  /** What the recent pace sends in RESERVE_HORIZON_MS (RESERVE_MAX at most): how far a fast run reserves ahead. */
  private paceAhead(): number {
    const now = performance.now();
    if (now - this.paceSince >= PACE_WINDOW_MS) {
      this.pace = (this.sentCount - this.sentAtPaceSince) / (now - this.paceSince);
      this.paceSince = now;
      this.sentAtPaceSince = this.sentCount;
    }
    return Math.min(RESERVE_MAX, Math.floor(this.pace * RESERVE_HORIZON_MS));
  }

  /**
   * How far reservations should run ahead: the calls that can go out now (the free part of the
   * window, within what the site has free), or the pace's horizon when that is more. A slow site
   * thus reserves exactly the calls about to leave, so a crash counts no call the site never saw.
   */
  reserveTarget(siteRoom: number): number {
    const free = Math.max(0, Math.min(this.adaptive.window - this.inFlight, siteRoom));
    // Only a site answering faster than the horizon reserves ahead of its window: for the others a
    // reservation written as calls return costs nothing they would notice.
    const ahead = this.paceAhead();
    return ahead > this.adaptive.window ? Math.max(free, ahead) : free;
  }

  /** Calls reserved and not sent yet, across the loaded batches. */
  reservedAhead(): number {
    return this.ahead;
  }

  /** The batch's calls up to `upTo` are reserved (written as dispatched_calls): they may go out. */
  reserved(batch: BatchState, upTo: number): void {
    this.ahead += upTo - batch.reserved;
    batch.reserved = upTo;
  }

  /** The reservations to write now: batch after batch, until the target is reserved ahead. */
  reservations(siteRoom: number): { batch: BatchState; upTo: number }[] {
    let missing = this.reserveTarget(siteRoom) - this.reservedAhead();
    const extended: { batch: BatchState; upTo: number }[] = [];
    for (const batch of this.batches) {
      if (missing <= 0) break;
      if (batch.reserved >= batch.calls.length) continue;
      const upTo = Math.min(batch.calls.length, batch.reserved + missing);
      missing -= upTo - batch.reserved;
      extended.push({ batch, upTo });
    }
    return extended;
  }

  /** Needs more batches loaded before it can reserve. */
  get wantsBatches(): boolean {
    return !this.exhausted && !this.batches.some((b) => b.reserved < b.calls.length);
  }

  /**
   * For each batch, the outcomes of its calls in call order up to the first still in flight, and,
   * once the run sends no more (stopped or handing over), the reservations not sent given back
   * (dispatched_calls = calls sent). Applied with `recorded()` once the transaction has committed.
   */
  delta(): RunDelta | undefined {
    // Nothing answered, given back or slowed since the last recording: most held runs at most ticks.
    if (!this.unrecorded && !(this.halt && this.ahead) && !this.slowdowns.length && !this.pauseCheck) return undefined;
    const batches: BatchDelta[] = [];
    const samples: FailureSample[] = [];
    let outcomes = "";
    let blocks = "";
    for (const batch of this.batches) {
      let upTo = batch.recorded;
      const delta: BatchDelta = { batch, upTo, ok: 0, failed: 0, hits: 0, bypassed: 0, ms: 0, hitMs: 0, missMs: 0, results: [], verifications: [], warmed: [], done: false, giveBack: false };
      for (let outcome = batch.outcomes.get(upTo); outcome; outcome = batch.outcomes.get(++upTo)) {
        batch.outcomes.delete(upTo);
        const call = batch.calls[upTo]!;
        if (batch.purpose !== "warm") {
          // A verification or a visitor check: counted apart from the run's calls.
          countCheck(delta, call, outcome);
          continue;
        }
        countAnswer(batch, outcome);
        if (outcome.ok) delta.ok++;
        else {
          delta.failed++;
          samples.push({ url: call.url, region: batch.region, user_agent: call.user_agent, language: call.language, status: outcome.status, error: outcome.error ?? "failed" });
        }
        // Interrupted calls say nothing about the site's health: they stay out of the auto-pause window.
        if (outcome !== INTERRUPTED) outcomes += outcome.ok ? "0" : "1";
        blocks += outcome.blockedBy ? "1" : "0";
        const ms = Math.round(outcome.ms);
        countCache(delta, upTo, call, outcome, ms);
        delta.ms += ms;
      }
      delta.upTo = upTo;
      delta.done = upTo === batch.calls.length;
      const giveBack = Boolean(this.halt) && batch.reserved > batch.next;
      if (giveBack) this.reserved(batch, batch.next);
      delta.giveBack = giveBack;
      if (upTo > batch.recorded || giveBack) batches.push(delta);
    }
    const recorded = batches.reduce((n, d) => n + d.upTo - d.batch.recorded, 0);
    const slowdowns = this.slowdowns;
    this.slowdowns = [];
    if (!batches.length && !slowdowns.length && !this.pauseCheck) return undefined;
    return { source: this, batches, recorded, samples, outcomes, blocks, slowdowns };
  }

  recorded(delta: RunDelta, running: boolean, window: string, blockJudged = false): void {
    for (const d of delta.batches) d.batch.recorded = d.upTo;
    this.unrecorded -= delta.recorded;
    this.pauseWindow = window;
    this.pauseCheck = false;
    this.blockJudged ||= blockJudged;
    this.blockCheck = false;
    if (!running) this.halt = "stopped";
    while (this.batches[0] && this.batches[0].recorded === this.batches[0].calls.length) this.batches.shift();
  }
}
