import type PgBoss from "pg-boss";

type Job = PgBoss.JobWithMetadata<unknown>;

/** Finished jobs are marked complete together, this soon after the first of them. */
const COMPLETE_EVERY_MS = 50;
/** A wake-up (a job sent here, a held job ending) fetches after this delay, so that a burst costs one fetch. */
const WAKE_DELAY_MS = 5;

/**
 * Keeps fetching one queue's run jobs while it holds fewer than `maxHeld`, each job completing on
 * its own. pg-boss's work() would wait for a whole fetch to end before fetching again: one long
 * run would hold back every run fetched with it, and the fetches in parallel would cap the runs a
 * worker warms at once. Here a job ending, or a job sent by this process, makes room at once.
 */
export class RunJobPump {
  private readonly held = new Set<Promise<void>>();
  private readonly finished: string[] = [];
  private completing: NodeJS.Timeout | undefined;
  private stopped = false;
  private sleeping: { wake: () => void; timer: NodeJS.Timeout } | undefined;
  private wakeQueued = false;
  /** A wake-up came while fetching: the loop fetches again instead of sleeping. */
  private wanted = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly boss: PgBoss,
    readonly queue: string,
    private readonly handle: (job: Job) => Promise<unknown>,
    private readonly options: { maxHeld: number; perFetch: number; pollMs: number; active: () => boolean },
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Fetch soon: a job was sent to this queue or room was made. */
  wake(): void {
    this.wanted = true;
    if (!this.sleeping || this.wakeQueued) return;
    this.wakeQueued = true;
    setTimeout(() => {
      this.wakeQueued = false;
      this.sleeping?.wake();
    }, WAKE_DELAY_MS);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const room = this.options.active() ? Math.min(this.options.perFetch, this.options.maxHeld - this.held.size) : 0;
      let fetched = 0;
      if (room > 0) {
        try {
          const jobs = await this.boss.fetch<unknown>(this.queue, { batchSize: room, includeMetadata: true });
          fetched = jobs?.length ?? 0;
          for (const job of jobs ?? []) this.hold(job);
        } catch (error) {
          console.error(`[jobs] fetching ${this.queue} failed`, (error as Error).message);
        }
      }
      // A full fetch may have left more behind: fetch again at once.
      if (fetched === 0 || fetched < room) await this.sleep(this.wanted ? WAKE_DELAY_MS : this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wanted = false;
      const wake = () => {
        clearTimeout(this.sleeping?.timer);
        this.sleeping = undefined;
        resolve();
      };
      this.sleeping = { wake, timer: setTimeout(wake, ms) };
    });
  }

  private hold(job: Job): void {
    const work = this.handle(job).then(
      () => this.complete(job.id),
      (error) => this.boss.fail(this.queue, job.id, { message: (error as Error)?.message ?? String(error) }).catch((e) => console.error(`[jobs] failing ${job.id} failed`, e)),
    );
    const settled = work.finally(() => {
      this.held.delete(settled);
      this.wake();
    });
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

  /** Fetches no more; waits for the jobs held (up to `timeoutMs`) and marks them complete. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    this.sleeping?.wake();
    await Promise.race([Promise.allSettled([...this.held]), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    await this.loop;
    clearTimeout(this.completing);
    await this.flushCompleted();
  }
}
