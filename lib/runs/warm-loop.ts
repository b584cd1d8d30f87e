import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import { boosts, runBatches, runs, sites } from "@/drizzle/schema";
import { type Database, ownedByThisProcess } from "@/lib/db";
import { gathered } from "@/lib/db/gathered";
import { inIdsPlaceholder, intArray } from "@/lib/db/recordset";
import { preparedOnce } from "@/lib/db/prepared";
import { inForeground } from "@/lib/db/statement-turns";
import { jobExpireSeconds } from "@/lib/jobs";
import { siteConcurrency } from "@/lib/sites/pace";
import { withVerificationSecret } from "@/lib/sites/verification";
import { AdaptiveWindow } from "@/lib/warm/adaptive-window";
import { type WarmEngine, warmEngine } from "@/lib/warm/engine";
import { PLAIN_REQUEST, type RunRequest } from "@/lib/warm/run-request";
import { botSigner } from "@/lib/warm/signing-keys";
import { recordingLimits, recordingParts, recordOutcomes } from "./record-outcomes";
import { basicAuthorization } from "./request-profile";
import { type BatchRow, type RunDelta, RunSource, sourceKey } from "./run-source";
import { renewSlots, type SiteGrant, slotTtlSeconds, soleGrant, soleGrants } from "@/lib/warm/site-slots";

/**
 * Outcomes of every run the worker holds are recorded together this often, in transactions of a
 * bounded size (recordingParts); when recording takes longer (thousands of runs on a busy database),
 * the next waits three times as long (2 s at most), so that recording never takes more than a
 * quarter of the database's time.
 */
const RECORD_EVERY_MS = 250;
const RECORD_EVERY_MAX_MS = 2_000;
/** How soon a recording comes when a run holds until it decides: runs reaching that point within it share one. */
const RECORD_SOON_MS = 10;
/** Reservations wanted within this long are written together. */
const RESERVE_EVERY_MS = 5;
/** Site slots are renewed (and shares rebalanced between workers) this often. */
const SLOTS_EVERY_MS = 1_000;
/** Batches read from the database at a time, ahead of the window. */
const LOAD_BATCHES = 40;
/** The longest a run.batch job warms before handing over to the next one (well within the job's expiry). */
const MAX_JOB_MS = 20_000;

export type WarmResult = "more" | "finished" | "stopped";

/** What every call of the run sends beyond its variant, from its request profile and its site. */
function runRequestOf(run: typeof runs.$inferSelect, site: typeof sites.$inferSelect, signer: RunRequest["signer"]): RunRequest {
  const profile = run.requestProfile;
  return {
    ...PLAIN_REQUEST,
    siteHost: site.domain,
    headers: profile?.headers ?? {},
    cookies: profile?.cookies ?? {},
    // Opened here, in the worker's memory only: never written back, never logged.
    authorization: basicAuthorization(profile),
    cookieSets: Object.fromEntries((run.variations?.cookie_sets ?? []).map((set) => [set.name, set.cookies])),
    verification: site.verificationSecret,
    signer,
  };
}

/** A third of the run.batch job's expiry, 20 s at most. */
function jobBudgetMs(): number {
  return Math.max(500, Math.min(MAX_JOB_MS, (jobExpireSeconds("run.batch") * 1000) / 3));
}

/**
 * Each run's adaptive window, kept for the run's life in this process (a run hands over from one
 * run.batch job to the next every few seconds; its pace must not start over each time).
 */
const adaptiveWindows = new Map<string, AdaptiveWindow>();

/** The runs adopted together, with their sites: built once per database (lib/db/prepared.ts), like the plan's read. */
const runsToAdopt = preparedOnce((db: Database) =>
  db
    .select({ run: runs, site: sites, ignoreErrors: boosts.ignoreErrors })
    .from(runs)
    .innerJoin(sites, eq(sites.id, runs.siteId))
    .leftJoin(boosts, eq(boosts.id, runs.boostId))
    .where(inIdsPlaceholder(runs.id, "ids"))
    .prepare("runs_to_adopt"),
);

/** The first LOAD_BATCHES pending batches of each region of the runs adopted together. */
const firstBatches = preparedOnce((db: Database) => {
  const numbered = db
    .select({ id: runBatches.id, rank: sql<number>`row_number() over (partition by ${runBatches.runId}, ${runBatches.region} order by ${runBatches.seq})`.as("rank") })
    .from(runBatches)
    .where(and(inIdsPlaceholder(runBatches.runId, "ids"), eq(runBatches.status, "pending")))
    .as("numbered");
  return db
    .select({ batch: runBatches })
    .from(runBatches)
    .innerJoin(numbered, eq(numbered.id, runBatches.id))
    .where(lte(numbered.rank, LOAD_BATCHES))
    .orderBy(asc(runBatches.runId), asc(runBatches.seq))
    .prepare("first_batches");
});

type Adoption = { found?: { run: typeof runs.$inferSelect; site: typeof sites.$inferSelect; ignoreErrors: boolean | null }; rows: BatchRow[] };

type Held = { source: RunSource; done: (result: WarmResult) => void; fail: (error: unknown) => void };

/**
 * Every run a worker process holds, warmed together through the process's engine: batches are
 * loaded and calls reserved (dispatched_calls, one statement for every run that needs it) before
 * they go out, and every RECORD_EVERY_MS the outcomes of all runs are recorded, in transactions of a
 * bounded number of runs and outcomes, smaller on the embedded database (recordingLimits in
 * lib/runs/record-outcomes.ts: batch statistics and progress, each run's error
 * window, samples and slowdowns, auto-pause, the early stop on blocked calls). A run leaves when it is finished,
 * stopped, or has warmed for its job's time budget.
 */
class WarmLoop {
  /** By sourceKey (run and region). */
  private readonly held = new Map<string, Held>();
  private ticker: NodeJS.Timeout | undefined;
  private ticking = false;
  /** performance.now() ms at which the next recording starts; Infinity while one is under way. */
  private tickDueAt = Infinity;
  /** A run began to hold until a recording decides while one was under way: the next comes soon. */
  private recordingAwaited = false;
  private slotTicker: NodeJS.Timeout | undefined;
  /** Sites this worker holds slots of. */
  private readonly slotted = new Set<number>();
  /** Sites of runs just adopted, waiting for their first slots. */
  private readonly newSites = new Set<number>();
  private newSitesStep: Promise<void> | undefined;
  /** Loading, reserving and recording never overlap: each waits for the one before. */
  private chain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private slotChain: Promise<void> = Promise.resolve();
  /** The reservations being written: a recording that gives reservations back waits for them. */
  private flushing: Promise<void> = Promise.resolve();
  /** The embedded database: this process is the only worker, and each site's whole limit is its own (soleGrant). */
  private readonly alone: boolean;

  constructor(
    private readonly db: Database,
    private readonly engine: WarmEngine,
  ) {
    this.alone = ownedByThisProcess(db);
  }

  /** Slot renewals, one after the other, beside (not behind) the recordings. */
  private slotStep(step: () => Promise<void>): Promise<void> {
    const next = this.slotChain.then(step, step);
    this.slotChain = next.catch((error) => console.error("[warm] site slots failed", error));
    return next;
  }

  private serial(step: () => Promise<void>): Promise<void> {
    const next = this.chain.then(step, step);
    this.chain = next.catch((error) => console.error("[warm] loop step failed", error));
    return next;
  }

  /** Warms the run's region with every other run this process holds, until it ends or its job's budget is spent. */
  async adopt(runId: number, region: string): Promise<WarmResult> {
    const key = sourceKey(runId, region);
    const { found, rows } = await this.adoptions.load({ runId, region });
    if (found?.run.status !== "running") {
      adaptiveWindows.delete(key);
      return "stopped";
    }
    // Before the check below: nothing awaits between it and the run being held.
    const [site, signer] = await Promise.all([withVerificationSecret(this.db, found.site), botSigner(this.db)]);
    if (this.held.has(key)) return "more"; // another job of the same run and region is already here: let it carry on
    const { run } = found;
    const concurrency = siteConcurrency(site);
    let adaptive = adaptiveWindows.get(key);
    if (!adaptive) adaptiveWindows.set(key, (adaptive = new AdaptiveWindow(concurrency)));
    // Auto-pause belongs to boosts; an on-demand warm runs to its end.
    const canPause = Boolean(run.boostId && found.ignoreErrors === false);
    const source = new RunSource(
      run,
      region,
      site.accountId,
      canPause,
      adaptive,
      performance.now() + jobBudgetMs(),
      () => this.soon(),
      () => this.recordSoon(),
      runRequestOf(run, site, signer),
    );
    source.addBatches(rows, LOAD_BATCHES);
    const result = new Promise<WarmResult>((resolve, reject) => this.held.set(key, { source, done: resolve, fail: reject }));
    try {
      // The site's slots first: what this worker may send it beside the other workers warming it.
      if (!this.slotted.has(site.id)) {
        // Alone, the grant needs no statement, and engine.add below pumps the run's account.
        if (this.alone) this.grant([soleGrant(site)], []);
        else await this.slotsFor(site.id);
      }
    } catch (error) {
      this.held.delete(key); // the job fails and is retried; nothing was sent
      throw error;
    }
    this.engine.add(source);
    this.soon();
    if (!this.ticking) this.scheduleTick(RECORD_EVERY_MS);
    this.slotTicker ??= setInterval(() => void this.slotStep(() => this.renewSlots()), SLOTS_EVERY_MS);
    return result;
  }

  /**
   * Runs adopted within a few milliseconds of each other (a fetch of hundreds of jobs) are loaded
   * together: one query for the runs, one for the first LOAD_BATCHES pending batches of each region,
   * sent together.
   */
  private readonly adoptions = gathered((keys: readonly { runId: number; region: string }[]) => this.loadAdoptions(keys), 500);

  private async loadAdoptions(keys: readonly { runId: number; region: string }[]): Promise<Adoption[]> {
    const ids = JSON.stringify([...new Set(keys.map((key) => key.runId))]);
    // Both at once: each statement waits for a turn of the event loop, and a run's first call waits
    // for both. The batches of a run that is no longer running are read for nothing, and dropped.
    const [found, rows] = await Promise.all([runsToAdopt(this.db).execute({ ids }), firstBatches(this.db).execute({ ids })]);
    const byRun = new Map(found.map((f) => [f.run.id, f]));
    const byKey = new Map<string, BatchRow[]>();
    for (const { batch } of rows) {
      const key = sourceKey(batch.runId, batch.region);
      byKey.set(key, [...(byKey.get(key) ?? []), batch]);
    }
    return keys.map((key) => ({ found: byRun.get(key.runId), rows: byKey.get(sourceKey(key.runId, key.region)) ?? [] }));
  }

  /** Loading and reservations are wanted: write them for every run that wants them, at once, soon. */
  private soon(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    // Calls returning within a few milliseconds share one reservation statement: with thousands in
    // flight, one per call would cost more than the calls.
    setTimeout(() => {
      this.flushQueued = false;
      // Reservations do not wait behind a recording: a call that returns is followed by the next at once.
      const step = this.flushing.then(() => this.flush());
      this.flushing = step.catch((error) => console.error("[warm] reservations failed", error));
    }, RESERVE_EVERY_MS);
  }

  private async load(source: RunSource): Promise<void> {
    const rows = await this.db
      .select()
      .from(runBatches)
      .where(and(eq(runBatches.runId, source.runId), eq(runBatches.region, source.region), eq(runBatches.status, "pending"), gt(runBatches.seq, source.lastSeq)))
      .orderBy(asc(runBatches.seq))
      .limit(LOAD_BATCHES);
    source.addBatches(rows, LOAD_BATCHES);
  }

  private async flush(): Promise<void> {
    const wanting: RunSource[] = [];
    for (const { source } of this.held.values()) if (source.wantsReservation && !source.halt) wanting.push(source);
    for (const source of wanting) {
      source.wantsReservation = false;
      if (source.wantsBatches) await this.load(source);
    }
    // Reserve no more than can go out now: the site's free slots and the worker's free budget, less
    // what is reserved and not sent yet. A reserved call that cannot leave would count, after a
    // crash, as a call the site never saw.
    const siteRoom = new Map<number, number>();
    const roomOf = (siteId: number) => siteRoom.get(siteId) ?? this.engine.siteRoom(siteId);
    let budget = this.engine.maxInFlight - this.engine.inFlight;
    for (const { source } of this.held.values()) {
      const ahead = source.reservedAhead();
      if (!ahead) continue; // most runs: a slow site reserves only the calls about to leave
      budget -= ahead;
      siteRoom.set(source.siteId, roomOf(source.siteId) - ahead);
    }
    const extended = wanting.flatMap((source) => {
      // A site's changes (an urgent source) hold reservations for the site's whole limit, whatever the
      // other runs there reserved ahead: the engine gives it the next free slot, and it must have a
      // call ready then, or the others' reserved calls take the slot. At most that many of its calls
      // count as interrupted after a crash.
      const room = source.urgent ? Math.max(0, Math.min(this.engine.siteLimit(source.siteId) - source.reservedAhead(), budget)) : Math.max(0, Math.min(roomOf(source.siteId), budget));
      const wanted = source.reservations(room + source.reservedAhead());
      const reserved = wanted.reduce((n, { batch, upTo }) => n + upTo - batch.reserved, 0);
      siteRoom.set(source.siteId, roomOf(source.siteId) - reserved);
      budget -= reserved;
      return wanted.map((reservation) => ({ source, ...reservation }));
    });
    if (extended.length) {
      // Two arrays rather than a JSON recordset (intArray): 1.03 to 1.25 ms a reservation against 1.46
      // to 1.56 in the 1,000-site case (docs/benchmarks.md). A reservation stands between a free slot and
      // its next call: on the embedded database it takes its turn with the requests' writes, not behind
      // the background's planning and recordings.
      const ids = intArray(extended.map(({ batch }) => batch.id));
      const upTos = intArray(extended.map(({ upTo }) => upTo));
      await inForeground(() => this.db.execute(sql`update ${runBatches} as b set dispatched_calls = v.up_to from unnest(${ids}, ${upTos}) as v(id, up_to) where b.id = v.id`), "write");
      for (const { source, batch, upTo } of extended) source.reserved(batch, upTo);
    }
    this.engine.pump(wanting);
  }

  private async tick(): Promise<void> {
    const deltas = [...this.held.values()].map((h) => h.source.delta()).filter((d): d is RunDelta => Boolean(d));
    let failed = false;
    for (const part of recordingParts(deltas, recordingLimits(this.alone))) {
      try {
        await this.record(part);
      } catch (error) {
        // Nothing of this part's outcomes is recorded: their jobs fail and are retried, and the calls
        // already handed out count once, as interrupted (dispatched_calls), when the runs resume.
        for (const { source } of part) this.release(source.key, (held) => held.fail(error));
        failed = true;
      }
    }
    if (failed) return;
    for (const [key, { source, done }] of [...this.held]) {
      if (source.inFlight || !source.settled) continue;
      const result: WarmResult | undefined = source.halt === "stopped" ? "stopped" : source.allSent ? "finished" : source.halt === "budget" ? "more" : undefined;
      if (!result) continue;
      if (result !== "more") adaptiveWindows.delete(key);
      this.release(key, () => done(result));
    }
    if (!this.held.size && this.ticking) {
      clearTimeout(this.ticker);
      this.ticking = false;
      void this.slotStep(() => this.renewSlots()); // gives the last sites' slots back
    }
    this.engine.pump();
  }

  private scheduleTick(delayMs: number): void {
    this.ticking = true;
    this.tickDueAt = performance.now() + delayMs;
    const timer = setTimeout(() => {
      const started = performance.now();
      this.tickDueAt = Infinity; // under way: a recording awaited meanwhile is asked of the next one
      this.recordingAwaited = false;
      // Failures are logged by serial(); a new timer set meanwhile (the loop emptied, then a run came) carries on instead.
      void this.serial(() => this.tick())
        .catch(() => {})
        .then(() => {
          const backoff = Math.min(RECORD_EVERY_MAX_MS, Math.max(RECORD_EVERY_MS, 3 * (performance.now() - started)));
          if (this.ticking && this.ticker === timer) this.scheduleTick(this.recordingAwaited ? RECORD_SOON_MS : backoff);
        });
    }, delayMs);
    this.ticker = timer;
  }

  /**
   * A run holds until a recording decides (its first calls judged for bot protection, most often):
   * the next recording comes within RECORD_SOON_MS instead of at its pace, or it would stall every run
   * for up to RECORD_EVERY_MAX_MS.
   */
  private recordSoon(): void {
    if (!this.ticking) return;
    if (this.tickDueAt === Infinity) {
      this.recordingAwaited = true;
      return;
    }
    if (this.tickDueAt <= performance.now() + RECORD_SOON_MS) return;
    clearTimeout(this.ticker);
    this.scheduleTick(RECORD_SOON_MS);
  }

  /** Takes slots of sites new to this worker: the runs adopted meanwhile wait for one renewal together. */
  private slotsFor(siteId: number): Promise<void> {
    this.newSites.add(siteId);
    this.newSitesStep ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const sites = [...this.newSites];
      this.newSites.clear();
      this.newSitesStep = undefined;
      return this.slotStep(() => this.applyGrants(sites, []));
    });
    return this.newSitesStep;
  }

  /** Renews this worker's share of each site it warms and gives back the others' (lib/warm/site-slots.ts). */
  private async renewSlots(): Promise<void> {
    // A site stays held while calls to it are in flight, whether or not a run of it is still here.
    const held = new Set([...this.held.values()].map((h) => h.source.siteId));
    for (const siteId of this.slotted) if (this.engine.siteInFlight(siteId) > 0) held.add(siteId);
    const released = [...this.slotted].filter((siteId) => !held.has(siteId));
    // Given back from this instant, not from the commit: a run of the site adopted while the
    // transaction runs must take new slots (slotsFor, after this step), never send under the old
    // lease while the others are told the slots are free.
    for (const siteId of released) {
      this.slotted.delete(siteId);
      this.engine.lowerSite(siteId, 0);
    }
    if (!held.size && !released.length) {
      if (this.slotTicker) clearInterval(this.slotTicker);
      this.slotTicker = undefined;
      return;
    }
    await this.applyGrants([...held], released);
  }

  private async applyGrants(held: number[], released: number[]): Promise<void> {
    if (this.alone) {
      this.grant(await soleGrants(this.db, held), released);
    } else {
      // The lease runs from before the renewal's transaction began (its now()): never later than the database's.
      const leaseUntil = performance.now() + slotTtlSeconds() * 1000;
      this.grant(await renewSlots(this.db, held, released, (siteId, grant) => this.engine.lowerSite(siteId, grant)), released, leaseUntil);
    }
    this.engine.pump();
  }

  /**
   * What this worker may send each site now; a sole worker's grant has no lease to lapse (no other
   * worker waits for its slots). The caller pumps the engine: a pump wakes every account it holds.
   */
  private grant(grants: SiteGrant[], released: number[], leaseUntil = Number.POSITIVE_INFINITY): void {
    for (const siteId of released) {
      this.slotted.delete(siteId);
      this.engine.dropSite(siteId);
    }
    for (const grant of grants) {
      this.slotted.add(grant.siteId);
      this.engine.setSite(grant.siteId, grant.slots, grant.requestsPerSecond, leaseUntil);
    }
  }

  /** Every run here hands over as soon as its calls in flight are back and recorded (the worker is stopping). */
  handOver(): void {
    for (const { source } of this.held.values()) source.halt ??= "budget";
  }

  private release(key: string, settle: (held: Held) => void): void {
    const held = this.held.get(key);
    if (!held) return;
    this.engine.remove(held.source);
    this.held.delete(key);
    settle(held);
  }

  /** These runs' outcomes in one transaction; a run paused or stopped elsewhere stops here too. */
  private async record(deltas: RunDelta[]): Promise<void> {
    // Giving reservations back must not cross a reservation of the same batch being written.
    if (deltas.some((d) => d.batches.some((b) => b.giveBack))) await this.flushing;
    const decisions = await this.db.transaction((tx) => recordOutcomes(tx, deltas));
    for (const delta of deltas) {
      const decision = decisions.get(delta.source.runId)!;
      delta.source.recorded(delta, decision.running, decision.window, decision.blockJudged);
    }
  }
}

const loops = new Map<Database, WarmLoop>();

/** Before a worker stops: its runs hand over at once (their next job resumes them), instead of warming out their budget. */
export function handOverAllRuns(db: Database): void {
  loops.get(db)?.handOver();
}

/**
 * Warms the pending batches of one of the run's regions with every other run this process holds,
 * for up to a third of the job's expiry. `more`: batches wait for the next job; `finished`: none
 * left in this region; `stopped`: paused or gone.
 */
export function warmNextBatch(db: Database, runId: number, region: string): Promise<WarmResult> {
  let loop = loops.get(db);
  if (!loop) loops.set(db, (loop = new WarmLoop(db, warmEngine())));
  return loop.adopt(runId, region);
}
