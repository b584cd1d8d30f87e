import { type SQL, sql } from "drizzle-orm";
import { fieldViews, trafficSources, trafficVisits } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { POPULARITY_DAYS, type PopularitySourceKind, type VisitShare } from "@/lib/core/traffic";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";

/**
 * A site's popularity table (issue 59): per path, the visits of the last POPULARITY_DAYS days as each
 * source counted them. An access log's days end at its newest line (an uploaded log may be older than
 * today); an analytics read covers the 30 days before it; the beacon's, the 30 days before now.
 *
 * A path's `visits` is the most any one source counted, not their sum: a log, an analytics tool and
 * the beacon see the same visitors, and adding them would count each visit two or three times.
 */
type PopularitySource = { source_id: number | null; kind: PopularitySourceKind; visits: number };
export type PopularityRow = { path: string; visits: number; sources: PopularitySource[] };

/**
 * Each source's visits per path over its window, the beacon's beside them: the table's one definition.
 * The beacon keeps a sample of the page views (PREHEAT_BEACON_SAMPLE): its count is scaled back by
 * the rate, so that it stands beside a log's or an analytics tool's.
 */
function beaconScale(): number {
  const sample = setting("PREHEAT_BEACON_SAMPLE");
  // A rate of 0 keeps no new view: the ones kept before count as they are.
  return sample > 0 ? 1 / sample : 1;
}

function perSource(siteId: number): SQL {
  return sql`
    select v.source_id, s.kind, v.path, sum(v.visits)::float8 as visits
    from ${trafficVisits} v join ${trafficSources} s on s.id = v.source_id
    where v.site_id = ${siteId} and s.site_id = ${siteId} and s.latest_day is not null and v.day > s.latest_day - ${POPULARITY_DAYS}::int
    group by v.source_id, s.kind, v.path
    union all
    select null::int, 'beacon', f.path, round(sum(f.views)::float8 * ${beaconScale()}::float8)
    from ${fieldViews} f
    where f.site_id = ${siteId} and f.hour > now() - make_interval(days => ${POPULARITY_DAYS})
    group by f.path`;
}

function byPath(siteId: number): SQL {
  return sql`select path, max(visits) as visits from (${perSource(siteId)}) per_source group by path`;
}

type SourceCell = { source_id: number | null; kind: PopularitySourceKind; visits: number | string };

/** One page of the table's rows, most visited first (ties by path), each with its sources' counts. */
async function rowsPage(db: Database, siteId: number, page: Page): Promise<PopularityRow[]> {
  const rows = await db.execute(sql`
    select path, max(visits)::float8 as visits,
      json_agg(json_build_object('source_id', source_id, 'kind', kind, 'visits', visits) order by kind, source_id) as sources
    from (${perSource(siteId)}) per_source
    group by path
    order by max(visits) desc, path
    limit ${page.limit} offset ${page.offset}`);
  return rowsOf<{ path: string; visits: number; sources: SourceCell[] | string }>(rows).map((row) => ({
    path: row.path,
    visits: Number(row.visits),
    sources: (typeof row.sources === "string" ? (JSON.parse(row.sources) as SourceCell[]) : row.sources).map((cell) => ({ ...cell, visits: Number(cell.visits) })),
  }));
}

/** One page of the table, with the site's totals. */
export async function popularityPage(db: Database, siteId: number, page: Page): Promise<{ paths: number; visits: number; rows: PopularityRow[] }> {
  const [totals, rows] = await Promise.all([db.execute(sql`select count(*)::int as paths, coalesce(sum(visits), 0)::float8 as visits from (${byPath(siteId)}) t`), rowsPage(db, siteId, page)]);
  const [total] = rowsOf<{ paths: number; visits: number }>(totals);
  return { paths: Number(total?.paths ?? 0), visits: Number(total?.visits ?? 0), rows };
}

/** Every row of the table, a page at a time (the totals are not summed again for each): the CSV download, whatever the table's size. */
export async function* popularityRows(db: Database, siteId: number, pageSize = 5_000): AsyncGenerator<PopularityRow> {
  for (let offset = 0; ; offset += pageSize) {
    const rows = await rowsPage(db, siteId, { limit: pageSize, offset });
    yield* rows;
    if (rows.length < pageSize) return;
  }
}

/** Visits by path (the whole table, no source detail): what ordering and budgets read. Empty when the site has no traffic data. */
export async function visitsByPath(db: Database, siteId: number): Promise<Map<string, number>> {
  const rows = rowsOf<{ path: string; visits: number }>(await db.execute(byPath(siteId)));
  return new Map(rows.map((row) => [row.path, Number(row.visits)]));
}

/**
 * A URL's key in the table: its path with its query when the table has it (kept where the site's
 * sitemaps or templates keep one), else its bare path (the table dropped the query of paths that keep
 * none); null for a URL that does not parse.
 */
function tableKey(url: string, visits: ReadonlyMap<string, number>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const withQuery = parsed.pathname + parsed.search;
  return visits.has(withQuery) ? withQuery : parsed.pathname;
}

/** A URL's visits in the table, 0 when it has none. */
function visitsOf(url: string, visits: ReadonlyMap<string, number>): number {
  if (!visits.size) return 0;
  const key = tableKey(url, visits);
  return key === null ? 0 : (visits.get(key) ?? 0);
}

/** The URLs most visited first; ties, and the unvisited after them, keep the order they came in (the sort is stable). */
export function mostVisitedFirst<T>(items: readonly T[], urlOf: (item: T) => string, visits: ReadonlyMap<string, number>): T[] {
  const counted = items.map((item, index) => ({ item, index, visits: visitsOf(urlOf(item), visits) }));
  counted.sort((a, b) => b.visits - a.visits || a.index - b.index);
  return counted.map((entry) => entry.item);
}

/** What share of the table's visits the URLs carry (each path once); null when the site has no traffic data. */
export function visitShareOf(urls: Iterable<string>, visits: ReadonlyMap<string, number>): VisitShare | null {
  if (!visits.size) return null;
  let total = 0;
  for (const count of visits.values()) total += count;
  const seen = new Set<string>();
  let covered = 0;
  for (const url of urls) {
    const key = tableKey(url, visits);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    covered += visits.get(key) ?? 0;
  }
  return { visits: covered, total };
}
