import { eq, sql } from "drizzle-orm";
import { runs, runUrlStates } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { recordset } from "@/lib/db/recordset";
import type { Baseline, ListedUrl } from "./url-order";

/** Snapshot rows per INSERT, handed over as one JSON parameter (see recordset). */
const SNAPSHOT_CHUNK = 5000;

/** The boost's last done run that has a snapshot: failed and paused runs never become the baseline. */
async function baselineRunId(db: Database, boostId: number): Promise<number | null> {
  const [row] = rowsOf<{ id: number | null }>(
    await db.execute(sql`
      select max(r.id)::int as id from ${runs} r
      where r.boost_id = ${boostId} and r.status = 'done' and exists (select 1 from ${runUrlStates} s where s.run_id = r.id)`),
  );
  return row?.id ?? null;
}

/** What `only_changed` compares with; null before the boost's first done run with a snapshot. */
export async function latestBaseline(db: Database, boostId: number): Promise<Baseline | null> {
  const runId = await baselineRunId(db, boostId);
  if (runId === null) return null;
  const rows = await db.select({ url: runUrlStates.url, lastmod: runUrlStates.lastmod }).from(runUrlStates).where(eq(runUrlStates.runId, runId));
  return { runId, lastmods: new Map(rows.map((row) => [row.url, row.lastmod?.getTime() ?? null])) };
}

/**
 * Keeps what the run found in the boost's sitemaps, for the next `only_changed` run to compare
 * with. Every run of every boost keeps one, so that turning `only_changed` on has a baseline at
 * once. The boost's other snapshots go (this run's own too, from an earlier attempt), but the
 * baseline's: at most two a boost. `urls` are each listed once.
 */
export async function storeSnapshot(db: Database, run: { id: number; boostId: number }, urls: readonly ListedUrl[]): Promise<void> {
  const baseline = await baselineRunId(db, run.boostId);
  await db.execute(sql`
    delete from ${runUrlStates} where run_id in (
      select id from ${runs} where boost_id = ${run.boostId} and id <> ${baseline ?? 0})`);
  for (let i = 0; i < urls.length; i += SNAPSHOT_CHUNK) {
    const rows = JSON.stringify(urls.slice(i, i + SNAPSHOT_CHUNK).map(({ url, lastmod }) => ({ url, lastmod })));
    await db.execute(sql`
      insert into ${runUrlStates} (run_id, url, lastmod)
      select ${run.id}, v.url, v.lastmod from ${recordset(rows, "url text, lastmod timestamptz")}`);
  }
}
