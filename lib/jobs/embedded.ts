import type { PGlite } from "@electric-sql/pglite";
import { eq, inArray, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { runs, sitemaps } from "@/drizzle/schema";
import type { Database, DatabaseHandle } from "@/lib/db";
import { handledJobs, runJob } from "./handlers";
import { type JobName, type JobPayload, installJobDriver, jobDefinitions, jobKey, sendJob } from "./index";

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

function envSeconds(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const queueName = (name: JobName) => `preheat.${name}`;

/**
 * On the embedded database there is one process: an `active` job found at start-up belonged to a
 * process that died. Fail it now (pg-boss then retries it) instead of waiting for its expiry.
 */
async function failOrphans(boss: PgBoss, db: Database) {
  const orphans = await db.execute<{ id: string; name: string }>(sql`select id, name from pgboss.job where state = 'active'`);
  const rows = Array.isArray(orphans) ? orphans : ((orphans as { rows: { id: string; name: string }[] }).rows ?? []);
  for (const { id, name } of rows) await boss.fail(name, id, { message: "The worker stopped during this job; it is retried." });
}

/** Queues again the records whose job may have been lost (sent before a crash, or never sent). */
async function requeueRecords(db: Database, soleWorker: boolean) {
  // With other workers about (a Postgres server), a `processing` sitemap may be theirs right now.
  const statuses = soleWorker ? ["waiting", "processing"] : ["waiting"];
  const waiting = await db.select({ id: sitemaps.id, siteId: sitemaps.siteId }).from(sitemaps).where(inArray(sitemaps.status, statuses));
  for (const s of waiting) await sendJob("sitemap.process", { sitemapId: s.id, siteId: s.siteId });
  const pending = await db.select({ id: runs.id, siteId: runs.siteId }).from(runs).where(eq(runs.status, "pending"));
  for (const r of pending) await sendJob("run.plan", { runId: r.id, siteId: r.siteId });
}

export type EmbeddedJobs = { boss: PgBoss; stop: () => Promise<void> };

/**
 * The embedded driver: pg-boss on the application's own database (PGlite or the Postgres server).
 * With `work`, this process also runs the handlers and the cron tick.
 */
export async function startEmbeddedJobs(handle: DatabaseHandle, options: { work: boolean }): Promise<EmbeddedJobs> {
  const common = {
    schema: "pgboss",
    maintenanceIntervalSeconds: envSeconds("PREHEAT_JOBS_MAINTENANCE_SECONDS", 60),
  };
  const boss = handle.pglite
    ? new PgBoss({ ...common, db: pgliteAdapter(handle.pglite), supervise: options.work, schedule: options.work })
    : new PgBoss({ ...common, connectionString: process.env.DATABASE_URL!, max: 4, supervise: options.work, schedule: options.work });
  boss.on("error", (error) => console.error("[jobs]", error.message));
  await boss.start();
  // Overrides for tests and operators: how soon a lost job is retried, and the first retry's delay.
  const expireOverride = Number(process.env.PREHEAT_JOB_EXPIRE_SECONDS) || undefined;
  const retryDelayOverride = Number(process.env.PREHEAT_JOB_RETRY_DELAY_SECONDS) || undefined;
  for (const [name, definition] of Object.entries(jobDefinitions) as [JobName, (typeof jobDefinitions)[JobName]][]) {
    const queue = {
      name: queueName(name),
      policy: "stately" as const, // one queued and one active job per record
      retryLimit: definition.retryLimit,
      retryDelay: retryDelayOverride ?? definition.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: expireOverride ?? definition.expireInSeconds,
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
      await boss.work(queueName(name), { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: envSeconds("PREHEAT_JOBS_POLL_SECONDS", 1) }, async ([job]) => {
        if (!job) return;
        return runJob(name, job.data, { db: handle.db, final: job.retryCount >= job.retryLimit });
      });
    }
    await boss.schedule(queueName("schedule.tick"), "* * * * *", {}, { tz: "UTC", singletonKey: "schedule.tick" });
    await requeueRecords(handle.db, handle.kind === "embedded");
  }
  return {
    boss,
    stop: async () => {
      installJobDriver(undefined);
      await boss.stop({ graceful: true, wait: true, timeout: 15_000, close: !handle.pglite });
    },
  };
}
