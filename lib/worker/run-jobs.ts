import { AsyncResource } from "node:async_hooks";
import type PgBoss from "pg-boss";

type Job = PgBoss.JobWithMetadata<unknown>;
/** Runs a job's handler; `final`: its last attempt (a failure then ends what it is about). */
export type PumpHandler = (data: unknown, final: boolean) => Promise<unknown>;

/** Finished jobs are marked complete together, this soon after the first of them. */
const COMPLETE_EVERY_MS = 50;
/** A wake-up (a job sent here, a held job ending) fetches after this delay, so that a burst costs one fetch. */
const WAKE_DELAY_MS = 5;
/**
 * A notice of jobs queued by another process (lib/worker/embedded.ts) fetches after this delay: the
 * server notifies for every few warms it accepts, and a burst of notices costs each pump one fetch
 * every 50 ms at most, not one for each notice.
 */
const NOTICE_DELAY_MS = 50;

type PumpOptions = {
  maxHeld: number;
  perFetch: number;
  pollMs: number;
  active: () => boolean;
  /** A job taken in-process that fails is queued for a retry this much later. */
  retryDelaySeconds: number;
};

/**
 * Keeps fetching one queue's run jobs while it holds fewer than `maxHeld`, each job completing on
 * its own. pg-boss's work() would wait for a whole fetch to end before fetching again: one long
 * run would hold back every run fetched with it, and the fetches in parallel would cap the runs a
 * worker warms at once. Here a job ending, or a job sent by this process, makes room at once.
 *
 * Jobs of one record (one key) never run at the same time here: a job whose key is held waits
 * for it, as pg-boss's `stately` policy makes a queued job wait for the active one.
 */
export class RunJobPump {
  private readonly held = new Set<Promise<void>>();
  /** Per key held, the end of its last job: a job of the same key starts after it. */
  private readonly keys = new Map<string, Promise<void>>();
  /** Keys with a job handed over in-process waiting for the one under way (one at most, as `stately`). */
  private readonly waiting = new Set<string>();
  private readonly finished: string[] = [];
  private completing: NodeJS.Timeout | undefined;
  private stopped = false;
  private sleeping: { wake: () => void; timer: NodeJS.Timeout } | undefined;
  /** The pending wake-up's timer and when it is due (Infinity: none pending). */
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeDueAt = Number.POSITIVE_INFINITY;
  /** A wake-up came while fetching: the loop fetches again after `wantedWithin` ms instead of sleeping. */
  private wanted = false;
  private wantedWithin = WAKE_DELAY_MS;
  /**
   * The queue may hold jobs: the last fetch filled its room, or a job was queued for want of room.
   * Only then does a job ending fetch at once; jobs handed over in-process leave the queue empty.
   */
  private backlog = false;
  private loop: Promise<void> | undefined;
  /**
   * Starts work in the context the pump was made in (the process's start), not in the request's that
   * handed a job over: the job's statements are background work, and its log lines are not the request's.
   */
  private readonly detached = AsyncResource.bind(<T>(start: () => T): T => start());

  constructor(
    private readonly boss: PgBoss,
    readonly queue: string,
    private readonly handle: PumpHandler,
    private readonly options: PumpOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** A job was queued here: fetch it soon, or as soon as there is room. */
  queued(): void {
    this.backlog = true;
    this.wake();
  }

  /** Another process queued jobs here (a NOTIFY): fetch them soon, one fetch for a burst of notices. */
  notified(): void {
    this.backlog = true;
    this.wake(NOTICE_DELAY_MS);
  }

  /** Fetch within `delayMs`: a sooner wake-up replaces a later one pending (a job queued here during a burst of notices). */
  private wake(delayMs = WAKE_DELAY_MS): void {
    if (!this.sleeping) {
      // Fetching now: it may have missed this, so the loop fetches again when it ends.
      this.wantedWithin = this.wanted ? Math.min(this.wantedWithin, delayMs) : delayMs;
      this.wanted = true;
      return;
    }
    const dueAt = performance.now() + delayMs;
    if (dueAt >= this.wakeDueAt) return;
    clearTimeout(this.wakeTimer);
    this.wakeDueAt = dueAt;
    this.wakeTimer = setTimeout(() => {
      this.wakeDueAt = Number.POSITIVE_INFINITY;
      this.sleeping?.wake();
    }, delayMs);
  }

  /** Jobs handed over in-process held now: pg-boss's table does not list them. */
  private handedOverHeld = 0;

  get inProcessCount(): number {
    return this.handedOverHeld;
  }

  /**
   * Takes a job in-process, with no statement for the queue, when it has room; false when the
   * caller must queue it. Only for a database one process owns (PGlite), where the records (runs)
   * say what is left: if the process dies, its start queues again every unfinished record
   * (requeueRecords), so nothing accepted is lost. A failure is queued for a retry.
   */
  offer(key: string, data: unknown): boolean {
    if (this.stopped || !this.options.active()) return false;
    if (this.keys.has(key)) {
      // One job of this key waits at most; a second is the same work (pg-boss refuses it too).
      if (!this.waiting.has(key)) {
        this.waiting.add(key);
        this.detached(() => this.hold(key, () => this.handedOver(key, data, true)));
      }
      return true;
    }
    if (this.held.size >= this.options.maxHeld) {
      this.backlog = true;
      return false;
    }
    this.detached(() => this.hold(key, () => this.handedOver(key, data, false)));
    return true;
  }

  private async handedOver(key: string, data: unknown, waited: boolean): Promise<void> {
    if (waited) this.waiting.delete(key);
    // Stopping meanwhile: the queue keeps it for the next worker (or this one's next start).
    if (this.stopped) return this.requeue(key, data, 0);
    this.handedOverHeld++;
    try {
      await this.handle(data, false);
    } catch {
      // runJob logged it; pg-boss retries it from here, with the queue's retry policy.
      await this.requeue(key, data, this.options.retryDelaySeconds);
    } finally {
      this.handedOverHeld--;
    }
  }

  private async requeue(key: string, data: unknown, delaySeconds: number): Promise<void> {
    await this.boss
      .send(this.queue, data as object, { singletonKey: key, startAfter: delaySeconds })
      .catch((error) => console.error(`[jobs] queueing ${key} failed; the next start queues it again`, (error as Error).message));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const room = this.options.active() ? Math.min(this.options.perFetch, this.options.maxHeld - this.held.size) : 0;
      let fetched = 0;
      if (room > 0) {
        try {
          const jobs = await this.boss.fetch<unknown>(this.queue, { batchSize: room, includeMetadata: true });
          fetched = jobs?.length ?? 0;
          this.backlog = fetched === room;
          for (const job of jobs ?? []) this.hold(job.singletonKey ?? job.id, () => this.fetched(job));
        } catch (error) {
          console.error(`[jobs] fetching ${this.queue} failed`, (error as Error).message);
        }
      }
      // A full fetch may have left more behind: fetch again at once.
      if (fetched === 0 || fetched < room) await this.sleep(this.wanted ? this.wantedWithin : this.options.pollMs);
    }
  }

  private fetched(job: Job): Promise<void> {
    return this.handle(job.data, job.retryCount >= job.retryLimit).then(
      () => this.complete(job.id),
      (error) => this.boss.fail(this.queue, job.id, { message: (error as Error)?.message ?? String(error) }).catch((e) => console.error(`[jobs] failing ${job.id} failed`, e)),
    );
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wanted = false;
      const wake = () => {
        clearTimeout(this.sleeping?.timer);
        // A wake-up still pending was for this sleep: it must not cut the next one short.
        clearTimeout(this.wakeTimer);
        this.wakeDueAt = Number.POSITIVE_INFINITY;
        this.sleeping = undefined;
        resolve();
      };
      this.sleeping = { wake, timer: setTimeout(wake, ms) };
    });
  }

  /** Starts `work` once the key's job under way (if any) has ended. */
  private hold(key: string, work: () => Promise<void>): void {
    const before = this.keys.get(key);
    const settled = (before ? before.then(work) : work()).finally(() => {
      this.held.delete(settled);
      if (this.keys.get(key) === settled) this.keys.delete(key);
      if (this.backlog) this.wake();
    });
    this.keys.set(key, settled);
    this.held.add(settled);
  }

  private complete(id: string): void {
    this.finished.push(id);
    this.completing ??= setTimeout(() => void this.flushCompleted(), COMPLETE_EVERY_MS);
  }

  private async flushCompleted(): Promise<void> {
    this.completing = undefined;
    const ids = this.finished.splice(0);
    if (!ids.length) return;
    // A job left active is retried after its expiry, and every handler is idempotent: nothing is lost.
    await this.boss.complete(this.queue, ids).catch((error) => console.error(`[jobs] completing ${ids.length} jobs failed`, (error as Error).message));
  }

  /** Fetches and takes no more; waits for the jobs held (up to `timeoutMs`) and marks them complete. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    this.sleeping?.wake();
    await Promise.race([Promise.allSettled([...this.held]), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    await this.loop;
    clearTimeout(this.completing);
    await this.flushCompleted();
  }
}
