import { sql } from "drizzle-orm";
import { fieldViews } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import { POPULARITY_DAYS } from "@/lib/core/traffic";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";

/**
 * The beacon's share of the popularity table (source kind `beacon`): the site's page views per path
 * over the last POPULARITY_DAYS days, as visits. Views are a sample when PREHEAT_BEACON_SAMPLE is below
 * 1: each path's count is divided by the rate now, an estimate of its visits.
 */
export async function beaconVisitsByPath(db: Database, siteId: number, now = new Date()): Promise<{ path: string; visits: number }[]> {
  const since = new Date(now.getTime() - POPULARITY_DAYS * 86_400_000).toISOString();
  const rows = rowsOf<{ path: string; views: number | string }>(
    await db.execute(sql`select path, sum(views)::int as views from ${fieldViews} where site_id = ${siteId} and hour >= ${since}::timestamptz group by path order by 2 desc, 1`),
  );
  const rate = setting("PREHEAT_BEACON_SAMPLE");
  return rows.map((row) => ({ path: row.path, visits: rate > 0 ? Math.round(Number(row.views) / rate) : 0 }));
}
