import { sql } from "drizzle-orm";
import { accounts, plans, runs } from "@/drizzle/schema";
import { ACTIVE_RUN_STATUSES } from "@/lib/core/run-status";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { pruneFreshness } from "@/lib/freshness/history";

/** Runs deleted per tick at most: a plan's first pass over years of runs spreads over a few minutes. */
const RUNS_PRUNED_PER_TICK = 1_000;

/**
 * Deletes the ended runs older than their organization's plan keeps them (`run_retention_days`),
 * with their batches and results. Their calls stay counted in the month's quota. Organizations on no
 * plan, or on a plan that keeps runs, lose nothing. The sites' freshness hours go with the same
 * retention (lib/freshness/history.ts).
 */
export async function pruneExpiredRuns(db: Database, now = new Date()): Promise<number> {
  await pruneFreshness(db, now);
  const deleted = await db.execute(sql`
    delete from ${runs} where ${runs.id} in (
      select r.id from ${runs} r
      join ${accounts} a on a.id = r.account_id
      join ${plans} p on p.id = a.plan_id
      where p.run_retention_days is not null
        and r.created_at < ${now.toISOString()}::timestamptz - make_interval(days => p.run_retention_days)
        and r.status not in (${sql.join(
          ACTIVE_RUN_STATUSES.map((status) => sql`${status}`),
          sql`, `,
        )})
      limit ${RUNS_PRUNED_PER_TICK})
    returning ${runs.id}`);
  return rowsOf(deleted).length;
}
