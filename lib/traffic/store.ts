import { and, eq, inArray, sql } from "drizzle-orm";
import { trafficSources, trafficVisits } from "@/drizzle/schema";
import { POPULARITY_DAYS, type TrafficReadCounts } from "@/lib/core/traffic";
import type { Database } from "@/lib/db";
import { recordset } from "@/lib/db/recordset";

/** Rows per INSERT: one JSON parameter each, so that a read of 100,000 paths is a few statements. */
const ROWS_PER_INSERT = 5_000;

type VisitRow = { day: string; path: string; visits: number };

async function insertVisits(tx: Database, sourceId: number, siteId: number, rows: VisitRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const values = JSON.stringify(rows.slice(start, start + ROWS_PER_INSERT).map((row) => ({ source_id: sourceId, site_id: siteId, ...row })));
    await tx.execute(sql`
      insert into ${trafficVisits} (source_id, site_id, day, path, visits)
      select * from ${recordset(values, "source_id int, site_id int, day date, path text, visits int")}
      on conflict (source_id, day, path) do update set visits = excluded.visits`);
  }
}

/** The day POPULARITY_DAYS before `day` (YYYY-MM-DD): visits older than that count for nothing once `day` is the newest. */
function windowStart(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - POPULARITY_DAYS);
  return date.toISOString().slice(0, 10);
}

/** What a successful read sets on its source. */
function readOutcome(counts: TrafficReadCounts, message: string | null) {
  return { lastStatus: "ok", lastReadAt: new Date(), lastCounts: counts, lastMessage: message };
}

/**
 * Stores a log's visits, in one transaction: the days it holds replace the source's same days (reading
 * one log twice counts its visits once; a log of another day adds that day), and days that fell out
 * of the 30 days before its newest are dropped. Answers the source as it now stands.
 */
export async function storeLogVisits(
  db: Database,
  source: { id: number; siteId: number; latestDay: string | null },
  visits: Map<string, Map<string, number>>,
  counts: TrafficReadCounts,
  message: string | null,
) {
  const days = [...visits.keys()].sort();
  const newest =
    [source.latestDay, days.at(-1)]
      .filter((day): day is string => Boolean(day))
      .sort()
      .at(-1) ?? null;
  const kept = newest ? windowStart(newest) : null;
  const rows: VisitRow[] = [];
  for (const [day, paths] of visits) {
    if (kept && day <= kept) continue;
    for (const [path, count] of paths) rows.push({ day, path, visits: count });
  }
  return db.transaction(async (tx) => {
    if (days.length) await tx.delete(trafficVisits).where(and(eq(trafficVisits.sourceId, source.id), inArray(trafficVisits.day, days)));
    if (kept) await tx.delete(trafficVisits).where(and(eq(trafficVisits.sourceId, source.id), sql`${trafficVisits.day} <= ${kept}::date`));
    await insertVisits(tx, source.id, source.siteId, rows);
    const [stored] = await tx
      .update(trafficSources)
      .set({ ...readOutcome(counts, message), latestDay: newest })
      .where(eq(trafficSources.id, source.id))
      .returning();
    return stored!;
  });
}

/** Stores an analytics read: its 30 days replace everything the source held, on the day of the read. */
export async function storeAnalyticsVisits(db: Database, source: { id: number; siteId: number }, visits: Map<string, number>, counts: TrafficReadCounts, today = new Date()) {
  const day = today.toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    await tx.delete(trafficVisits).where(eq(trafficVisits.sourceId, source.id));
    await insertVisits(
      tx,
      source.id,
      source.siteId,
      [...visits].map(([path, count]) => ({ day, path, visits: count })),
    );
    await tx
      .update(trafficSources)
      .set({ ...readOutcome(counts, null), latestDay: day })
      .where(eq(trafficSources.id, source.id));
  });
}

/** A read that failed: the source says why, and keeps the visits of the read before. */
export async function noteReadFailed(db: Database, sourceId: number, message: string): Promise<void> {
  await db.update(trafficSources).set({ lastStatus: "failed", lastReadAt: new Date(), lastMessage: message }).where(eq(trafficSources.id, sourceId));
}
