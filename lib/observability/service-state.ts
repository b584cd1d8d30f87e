import { count, inArray, sql } from "drizzle-orm";
import { runs } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { inngestConfigured, jobDefinitions, type JobName, jobsHeldInProcess } from "@/lib/jobs";
import { ACTIVE_RUN_STATUSES } from "@/lib/core/run-status";
import { metrics } from "./metrics";

const READY_TIMEOUT_MS = 2_000;

function withinDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export type Readiness = { ready: boolean; checks: { database: string; jobs: string } };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether this process can serve: the database answers, and so does the job engine's queue (pg-boss's tables), unless Inngest runs the jobs. */
export async function readiness(db: () => Promise<Database>): Promise<Readiness> {
  let handle: Database;
  try {
    handle = await withinDeadline(db(), "the database");
    await withinDeadline(handle.execute(sql`select 1`), "the database");
  } catch (error) {
    return { ready: false, checks: { database: messageOf(error), jobs: "not checked" } };
  }
  if (inngestConfigured()) return { ready: true, checks: { database: "ok", jobs: "inngest" } };
  try {
    await withinDeadline(handle.execute(sql`select 1 from pgboss.version limit 1`), "the job queue");
    return { ready: true, checks: { database: "ok", jobs: "ok" } };
  } catch (error) {
    return { ready: false, checks: { database: "ok", jobs: messageOf(error) } };
  }
}

/** The job kind of a pg-boss queue name (`preheat.run.batch.fr` → `run.batch`). */
function jobOfQueue(queue: string): JobName | undefined {
  const name = queue.replace(/^preheat\./, "");
  return (Object.keys(jobDefinitions) as JobName[]).find((job) => name === job || name.startsWith(`${job}.`));
}

/** Reads the service-wide gauges from the database: queue depth by job kind, active runs by type. */
export async function refreshServiceGauges(db: Database): Promise<void> {
  const { queueDepth, activeRuns } = metrics();
  const active = await db
    .select({ type: runs.kind, n: count() })
    .from(runs)
    .where(inArray(runs.status, [...ACTIVE_RUN_STATUSES]))
    .groupBy(runs.kind);
  activeRuns.reset();
  for (const type of ["boost", "warm"]) activeRuns.set({ type }, active.find((row) => row.type === type)?.n ?? 0);
  queueDepth.reset();
  for (const job of Object.keys(jobDefinitions)) queueDepth.set({ job }, 0);
  if (inngestConfigured()) return;
  const queued = rowsOf<{ name: string; n: number | string }>(
    await db.execute(sql`select name, count(*) as n from pgboss.job where state in ('created', 'retry', 'active') group by name`).catch(() => []),
  );
  for (const { name, n } of [...queued, ...Object.entries(jobsHeldInProcess()).map(([name, n]) => ({ name, n }))]) {
    const job = jobOfQueue(name);
    if (job) queueDepth.inc({ job }, Number(n));
  }
}
