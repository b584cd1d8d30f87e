import type { PGlite } from "@electric-sql/pglite";
import { inArray, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { runs, sitemaps } from "@/drizzle/schema";
import { rowsOf } from "@/lib/runs/summary";
import { handOverAllRuns } from "@/lib/runs/warm-loop";
import type { Database, DatabaseHandle } from "@/lib/db";
import { jobConcurrency } from "./config";
import { handledJobs, runJob } from "./handlers";
import { envInteger, envNumber } from "@/lib/env";
import { type JobName, type JobPayload, installJobDriver, jobDefinitions, jobExpireSeconds, jobKey, sendJob } from "@/lib/jobs";

/** pg-boss sends parameterless (possibly multi-statement) SQL through exec(), the rest through query(). */
function pgliteAdapter(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (!values?.length) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await pglite.query(text, values);
      return { rows: result.rows };
    },
  };
}

const queueName = (name: JobName) => `preheat.${name}`;

/** run.plan and run.batch jobs one fetch takes at most (PREHEAT_RUNS_PER_FETCH, default 250): each is a run, planned or warmed beside the others. */
function runsPerFetch(): number {
  return envInteger("PREHEAT_RUNS_PER_FETCH", 250);
}

/**
 * On the embedded database there is one process: an `active` job found at start-up belonged to a
 * process that died. Fail it now (pg-boss then retries it) instead of waiting for its expiry.
 */
async function failOrphans(boss: PgBoss, db: Database) {
  const orphans = await db.execute<{ id: string; name: string }>(sql`select id, name from pgboss.job where state = 'active'`);
  for (const { id, name } of rowsOf<{ id: string; name: string }>(orphans)) await boss.fail(name, id, { message: "The worker stopped during this job; it is retried." });
}

/** Keys of the jobs pg-boss still holds (queued, waiting for a retry, or running). */
async function liveJobKeys(db: Database): Promise<Set<string>> {
  const result = await db.execute<{ key: string }>(sql`select singleton_key as key from pgboss.job where state in ('created', 'retry', 'active') and singleton_key is not null`);
  return new Set(rowsOf<{ key: string }>(result).map((r) => r.key));
}

/** Queues again the records whose job was lost (sent before a crash, or never sent). */
async function requeueRecords(db: Database) {
  const live = await liveJobKeys(db);
  const open = await db.select({ id: sitemaps.id, siteId: sitemaps.siteId }).from(sitemaps).where(inArray(sitemaps.status, ["waiting", "processing"]));
  for (const s of open) {
    const payload = { sitemapId: s.id, siteId: s.siteId };
    if (!live.has(jobKey("sitemap.process", payload))) await sendJob("sitemap.process", payload);
  }
  // Pending runs wait for planning; running ones were warming when their worker stopped (their
  // hand-over job could not be queued any more).
  const active = await db.select({ id: runs.id, siteId: runs.siteId, status: runs.status }).from(runs).where(inArray(runs.status, ["pending", "running"]));
  for (const r of active) {
    const payload = { runId: r.id, siteId: r.siteId };
    const job = r.status === "pending" ? "run.plan" : "run.batch";
    if (!live.has(jobKey(job, payload))) await sendJob(job, payload);
  }
}

export type EmbeddedJobs = { boss: PgBoss; stop: () => Promise<void> };

/**
 * The embedded driver: pg-boss on the application's own database (PGlite or the Postgres server).
 * With `work`, this process also runs the handlers and the cron tick.
 */
export async function startEmbeddedJobs(handle: DatabaseHandle, options: { work: boolean }): Promise<EmbeddedJobs> {
  const common = {
    schema: "pgboss",
    maintenanceIntervalSeconds: envNumber("PREHEAT_JOBS_MAINTENANCE_SECONDS", 60),
  };
  const boss = handle.pglite
    ? new PgBoss({ ...common, db: pgliteAdapter(handle.pglite), supervise: options.work, schedule: options.work })
    : new PgBoss({ ...common, connectionString: process.env.DATABASE_URL!, max: 4, supervise: options.work, schedule: options.work });
  boss.on("error", (error) => console.error("[jobs]", error.message));
  await boss.start();
  // Overrides for tests and operators: how soon a lost job is retried, and the first retry's delay.
  const retryDelayOverride = Number(process.env.PREHEAT_JOB_RETRY_DELAY_SECONDS) || undefined;
  for (const [name, definition] of Object.entries(jobDefinitions) as [JobName, (typeof jobDefinitions)[JobName]][]) {
    const queue = {
      name: queueName(name),
      policy: "stately" as const, // one queued and one active job per record
      retryLimit: definition.retryLimit,
      retryDelay: retryDelayOverride ?? definition.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: jobExpireSeconds(name),
    };
    if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
    else await boss.createQueue(queue.name, queue);
  }
  installJobDriver({
    async send<N extends JobName>(name: N, payload: JobPayload<N>) {
      await boss.send(queueName(name), payload, { singletonKey: jobKey(name, payload) });
    },
  });

  if (options.work) {
    if (handle.kind === "embedded") await failOrphans(boss, handle.db);
    for (const name of handledJobs()) {
      // pg-boss 10 has no team size: each work() is one more fetch of this kind at a time.
      const workers = name === "schedule.tick" ? 1 : jobConcurrency();
      const pollSeconds = envNumber("PREHEAT_JOBS_POLL_SECONDS", 1);
      // Runs are warmed together by the process's engine (lib/runs/warm-loop.ts): each fetch takes
      // every queued run.batch (and run.plan) job it can, so one worker serves every tenant's runs at once.
      const batchSize = name === "run.batch" || name === "run.plan" ? runsPerFetch() : 1;
      for (let i = 0; i < workers; i++) {
        // The first worker answers quickly; the others only matter under load, and an idle poll costs
        // a query (several ms on PGlite): they look five times less often, except for runs, whose
        // newcomers must not wait behind a long-running batch of jobs.
        const pollingIntervalSeconds = i === 0 || batchSize > 1 ? pollSeconds : Math.max(5, pollSeconds * 5);
        await boss.work(queueName(name), { includeMetadata: true, batchSize, pollingIntervalSeconds }, async (jobs) => {
          await Promise.all(
            jobs.map(async (job) => {
              try {
                await runJob(name, job.data, { db: handle.db, final: job.retryCount >= job.retryLimit });
              } catch (error) {
                // One job's failure is its own: the others of the fetch complete.
                if (jobs.length === 1) throw error;
                await boss.fail(queueName(name), job.id, { message: (error as Error).message });
              }
            }),
          );
        });
      }
    }
    await boss.schedule(queueName("schedule.tick"), "* * * * *", {}, { tz: "UTC", singletonKey: "schedule.tick" });
    await requeueRecords(handle.db);
  }
  return {
    boss,
    stop: async () => {
      installJobDriver(undefined);
      handOverAllRuns(handle.db);
      await boss.stop({ graceful: true, wait: true, timeout: 15_000, close: !handle.pglite });
    },
  };
}
