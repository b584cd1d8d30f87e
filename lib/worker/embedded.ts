import { sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { DatabaseHandle } from "@/lib/db";
import { gathered } from "@/lib/db/gathered";
import { setting } from "@/lib/config";
import { type JobName, type JobPayload, installJobDriver, jobDefinitions, jobExpireSeconds, jobKey, jobRetryPolicy, sendJob } from "@/lib/jobs";
import { REGIONS, type RegionCode } from "@/lib/core/regions";
import { PLANS_AT_ONCE } from "@/lib/runs/plan";
import { handOverAllRuns } from "@/lib/runs/warm-loop";
import { workerMaxInFlight } from "@/lib/warm/engine";
import { REPORT_EVERY_MS, regionsWithWorkers, reportIn, signOff, workerRegions } from "@/lib/warm/workers";
import { jobConcurrency } from "./config";
import { handledJobs, runJob } from "./handlers";
import { pgliteJobsDb } from "./pglite-jobs-db";
import { failOrphans, requeueRecords } from "./recovery";
import { RunJobPump } from "./run-jobs";

/** run.batch has a queue per region, so that a regional worker fetches its regions' jobs only. */
const queueName = (name: JobName, region?: string) => (region ? `preheat.${name}.${region}` : `preheat.${name}`);
const queueOf = <N extends JobName>(name: N, payload: JobPayload<N>) => queueName(name, "region" in payload ? payload.region : undefined);
const regionQueue = (region: RegionCode) => queueName("run.batch", region);

/** Run jobs one fetch takes at most (PREHEAT_RUNS_PER_FETCH, default 250). */
function runsPerFetch(): number {
  return setting("PREHEAT_RUNS_PER_FETCH");
}

/** Jobs the pumps took in-process and hold, by queue. */
function heldInProcess(pumps: Map<string, RunJobPump>): Record<string, number> {
  return Object.fromEntries([...pumps].map(([queue, pump]) => [queue, pump.inProcessCount]));
}

export type EmbeddedJobs = { boss: PgBoss; stop: () => Promise<void> };

/**
 * On a PostgreSQL server, a process that queued jobs names their queues on this channel (NOTIFY), and
 * the workers listening fetch from them at once rather than at their next poll: a warm's first call
 * waited 0.9 s on average for the workers' polls (PREHEAT_JOBS_POLL_SECONDS) while 1,000 warms
 * arrived (docs/benchmarks.md). A notice lost costs only that wait: the polls go on.
 */
const JOBS_CHANNEL = "preheat_jobs";

async function createQueues(boss: PgBoss) {
  for (const name of Object.keys(jobDefinitions) as JobName[]) {
    const { retryLimit, retryDelaySeconds } = jobRetryPolicy(name);
    const names = name === "run.batch" ? REGIONS.map((r) => regionQueue(r.code)) : [queueName(name)];
    for (const queueName of names) {
      const queue = {
        name: queueName,
        policy: "stately" as const, // one queued and one active job per record
        retryLimit,
        retryDelay: retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: jobExpireSeconds(name),
      };
      if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
      else await boss.createQueue(queue.name, queue);
    }
  }
}

/**
 * The embedded driver: pg-boss on the application's own database (PGlite or the Postgres server).
 * With `work`, this process also runs the handlers and the cron tick.
 */
export async function startEmbeddedJobs(handle: DatabaseHandle, options: { work: boolean }): Promise<EmbeddedJobs> {
  const common = {
    schema: "pgboss",
    maintenanceIntervalSeconds: setting("PREHEAT_JOBS_MAINTENANCE_SECONDS"),
  };
  const embeddedDb = handle.pglite ? pgliteJobsDb(handle.pglite) : undefined;
  const boss = embeddedDb
    ? new PgBoss({ ...common, db: embeddedDb, supervise: options.work, schedule: options.work })
    : new PgBoss({ ...common, connectionString: setting("DATABASE_URL")!, max: 4, supervise: options.work, schedule: options.work });
  boss.on("error", (error) => console.error("[jobs]", error.message));
  await boss.start();
  await createQueues(boss);
  const pumps = new Map<string, RunJobPump>();
  // Jobs sent within a few milliseconds (a thousand runs planned at once) are inserted by one statement.
  const inserts = gathered(async (jobs: readonly PgBoss.JobInsert[]) => {
    await boss.insert([...jobs]);
    const queues = new Set(jobs.map((job) => job.name));
    for (const queue of queues) pumps.get(queue)?.queued(); // a run planned here starts warming here at once
    if (handle.listen) {
      await handle.db.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${[...queues].join(",")})`).catch((error) => console.error("[jobs] notifying the workers failed", (error as Error).message));
    }
    return jobs.map(() => undefined);
  }, 1000);
  // On PGlite this is the one process, and a run's own rows say what is left of it: its jobs are
  // handed to this process's pumps with no statement, and queued only when a pump has no room
  // (ADR 0008). On a PostgreSQL server, other workers must see every job: all are queued.
  const handOver = handle.kind === "embedded" && options.work;
  installJobDriver({
    async send<N extends JobName>(name: N, payload: JobPayload<N>) {
      const queue = queueOf(name, payload);
      const key = jobKey(name, payload);
      if (handOver && pumps.get(queue)?.offer(key, payload)) return;
      await inserts.load({ name: queue, data: payload, singletonKey: key });
    },
    heldInProcess: () => heldInProcess(pumps),
  });
  if (!options.work) {
    return {
      boss,
      stop: async () => {
        installJobDriver(undefined);
        await boss.stop({ graceful: true, wait: true, timeout: 15_000, close: !embeddedDb });
        await embeddedDb?.close();
      },
    };
  }

  const db = handle.db;
  if (handle.kind === "embedded") await failOrphans(boss, db);
  const pollMs = setting("PREHEAT_JOBS_POLL_SECONDS") * 1000;
  const stopped = new AbortController();
  const work = (name: JobName) => (job: PgBoss.JobWithMetadata<unknown>) => {
    const handled = runJob(name, job.data, { db, final: job.retryCount >= job.retryLimit, stopping: stopped.signal });
    return embeddedDb ? embeddedDb.handling(handled) : handled;
  };
  const pumped = (name: JobName) => (data: unknown, final: boolean) => runJob(name, data, { db, final });
  const retryDelaySeconds = (name: JobName) => jobRetryPolicy(name).retryDelaySeconds;
  for (const name of handledJobs()) {
    if (name === "run.plan" || name === "run.batch") continue;
    // pg-boss 10 has no team size: each work() is one more fetch of this kind at a time.
    const workers = name === "schedule.tick" || name === "keep_warm.tick" ? 1 : jobConcurrency();
    for (let i = 0; i < workers; i++) {
      // The first worker answers quickly; the others only matter under load, and an idle poll costs
      // a query (several ms on PGlite): they look five times less often.
      const pollingIntervalSeconds = i === 0 ? pollMs / 1000 : Math.max(5, (pollMs / 1000) * 5);
      await boss.work(queueName(name), { includeMetadata: true, pollingIntervalSeconds }, async ([job]) => work(name)(job!));
    }
  }

  // Runs: planned, then warmed region by region by the process's engine (lib/runs/warm-loop.ts),
  // every run this worker holds at once. A regional worker (--regions) fetches its regions' jobs
  // only; a worker without a list fetches those of the regions no regional worker takes.
  const mine = workerRegions();
  let taken = await regionsWithWorkers(db);
  const perFetch = runsPerFetch();
  pumps.set(
    queueName("run.plan"),
    new RunJobPump(boss, queueName("run.plan"), pumped("run.plan"), { maxHeld: PLANS_AT_ONCE, perFetch: PLANS_AT_ONCE, pollMs, active: () => true, retryDelaySeconds: retryDelaySeconds("run.plan") }),
  );
  for (const { code } of REGIONS) {
    if (mine.length && !mine.includes(code)) continue;
    const active = mine.length ? () => true : () => !taken.has(code);
    pumps.set(
      regionQueue(code),
      new RunJobPump(boss, regionQueue(code), pumped("run.batch"), { maxHeld: workerMaxInFlight(), perFetch, pollMs, active, retryDelaySeconds: retryDelaySeconds("run.batch") }),
    );
  }
  for (const pump of pumps.values()) pump.start();
  const unlisten = await handle.listen?.(JOBS_CHANNEL, (payload) => {
    for (const queue of payload.split(",")) pumps.get(queue)?.notified();
  });

  await boss.schedule(queueName("schedule.tick"), "* * * * *", {}, { tz: "UTC", singletonKey: "schedule.tick" });
  // The keep-warm tick's chain starts with the worker, not at the next minute's cron tick (one chain at a time: its queue keeps one).
  await sendJob("keep_warm.tick", {});
  await reportIn(db);
  const presence = setInterval(async () => {
    try {
      await reportIn(db);
      taken = await regionsWithWorkers(db);
    } catch (error) {
      console.error("[jobs] reporting in failed", (error as Error).message);
    }
  }, REPORT_EVERY_MS);
  await requeueRecords(db);
  return {
    boss,
    stop: async () => {
      stopped.abort();
      clearInterval(presence);
      await unlisten?.().catch(() => {});
      // The pumps take no more first; then runs hand over at once, and their follow-up jobs are
      // queued (the driver is still installed) for the other workers, or for this one's next start.
      const stopping = [...pumps.values()].map((pump) => pump.stop(15_000));
      handOverAllRuns(db);
      await Promise.all(stopping);
      installJobDriver(undefined);
      await signOff(db).catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: 15_000, close: !embeddedDb });
      await embeddedDb?.close();
    },
  };
}
