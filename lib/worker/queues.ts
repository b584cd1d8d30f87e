import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { inngestConfigured, jobsHeldInProcess } from "@/lib/jobs";
import type { QueuesView } from "@/lib/jobs/queue-view";

/*
 * The operator console's view of the job queues: pg-boss's own table (schema `pgboss`, on the
 * application's database, embedded or PostgreSQL server). With Inngest, the jobs live in Inngest and
 * its dashboard shows them.
 */

const FAILED_SHOWN = 100;

const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

/** Each queue's waiting and active jobs and the age of its oldest waiting one, and the latest failed jobs with their errors. */
export async function queuesView(db: Database): Promise<QueuesView> {
  if (inngestConfigured()) return { driver: "inngest", queues: [], failed: [] };
  const [queues, failed] = await Promise.all([
    db.execute(sql`
      select name,
        count(*) filter (where state in ('created', 'retry'))::int as waiting,
        count(*) filter (where state = 'active')::int as active,
        count(*) filter (where state = 'failed')::int as failed,
        min(created_on) filter (where state in ('created', 'retry')) as oldest
      from pgboss.job group by name order by name`),
    db.execute(sql`
      select id::text as id, name, data, output, retry_count, completed_on
      from pgboss.job where state = 'failed' order by completed_on desc nulls last limit ${FAILED_SHOWN}`),
  ]);
  const now = Date.now();
  // Run jobs the embedded worker took without queueing them (ADR 0008) are active too.
  const inProcess = jobsHeldInProcess();
  const rows = rowsOf<{ name: string; waiting: number; active: number; failed: number; oldest: string | null }>(queues);
  for (const [name, held] of Object.entries(inProcess)) if (held && !rows.some((row) => row.name === name)) rows.push({ name, waiting: 0, active: 0, failed: 0, oldest: null });
  return {
    driver: "pg-boss",
    queues: rows
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((row) => ({
        name: row.name,
        waiting: Number(row.waiting),
        active: Number(row.active) + (inProcess[row.name] ?? 0),
        failed: Number(row.failed),
        oldest_waiting_at: iso(row.oldest),
        oldest_waiting_seconds: row.oldest ? Math.max(0, Math.round((now - new Date(row.oldest).getTime()) / 1000)) : null,
      })),
    failed: rowsOf<{ id: string; name: string; data: unknown; output: { message?: string } | null; retry_count: number; completed_on: string | null }>(failed).map((row) => ({
      id: row.id,
      queue: row.name,
      data: row.data,
      error: row.output?.message ?? (row.output ? JSON.stringify(row.output) : null),
      retries: Number(row.retry_count),
      failed_at: iso(row.completed_on),
    })),
  };
}

/** Puts a failed job back in its queue for one more attempt (as pg-boss's own retry does). False when no failed job has that id. */
export async function retryFailedJob(db: Database, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const result = await db.execute(sql`
    update pgboss.job set state = 'retry', retry_limit = retry_limit + 1, start_after = now()
    where id = ${id}::uuid and state = 'failed' returning id`);
  return rowsOf(result).length > 0;
}
