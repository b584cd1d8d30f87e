import { sql } from "drizzle-orm";
import { accounts, plans, siteFreshnessEntries, siteFreshnessHours, sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { InvalidError } from "@/lib/core/errors";
import type { Database } from "@/lib/db";
import { recordset } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import { getSite } from "@/lib/sites/service";
import type { SiteFreshness } from "./history-schemas";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * How long an entry stays known after its last answer: a monthly schedule (at most 31 days apart)
 * keeps its pages known from one run to the next, and a page no run asks for any more (gone from the
 * sitemap) stops counting a month after its last answer.
 */
const KNOWN_DAYS = 32;
/** The longest period one answer covers: a month of hours, 744 points per figure. */
const MAX_SPAN_DAYS = 31;
const DEFAULT_DAYS = 7;

/** What one recording adds to its sites' freshness (lib/runs/record-outcomes.ts gathers it from the outcomes). */
export type FreshnessRecording = {
  /** Each entry answered, with its answer's fresh_until (null: not storable); one per entry, the last answer's. */
  readings: { siteId: number; region: string; callKey: string; freshUntil: Date | null }[];
  /** The calls recorded per site and region: warming calls, and visitor-check calls apart. */
  counts: { siteId: number; region: string; calls: number; hits: number; visitorCheckCalls: number; visitorCheckHits: number }[];
};

/**
 * Records one recording's calls and readings in one statement, in the recording's transaction. Each
 * entry's row is upserted with the time of the recording; the row as it was before comes back through
 * `prev_*` (set from the row the upsert locked, so a concurrent recording of the same entry is seen),
 * and the answer's effect on the figures is written as changes of the hours it touches:
 *
 * - known: +1 from the recording, −1 when `known_until` passes; the previous answer's −1 moves with it.
 * - fresh: +1 from the recording and −1 at `fresh_until` when the answer is fresh on arrival; when the
 *   previous answer was still fresh, its −1 at its `fresh_until` is taken back and it ends now instead.
 *
 * A change at time t counts from the end of the hour that holds t (an hour ending exactly at t
 * included). A late recording of an older answer changes no entry, as keep-warm's entries.
 */
export async function recordFreshness(tx: Database, recording: FreshnessRecording, recordedAt: Date): Promise<void> {
  if (!recording.readings.length && !recording.counts.length) return;
  const at = recordedAt.toISOString();
  const known = sql`${at}::timestamptz + make_interval(days => ${KNOWN_DAYS})`;
  const readings = recording.readings.map((r) => ({ site_id: r.siteId, region: r.region, call_key: r.callKey, fresh_until: r.freshUntil?.toISOString() ?? null }));
  const counts = recording.counts.map((c) => ({
    site_id: c.siteId,
    region: c.region,
    calls: c.calls,
    hits: c.hits,
    visitor_check_calls: c.visitorCheckCalls,
    visitor_check_hits: c.visitorCheckHits,
  }));
  await tx.execute(sql`
    with readings as (
      select * from ${recordset(JSON.stringify(readings), "site_id int, region text, call_key text, fresh_until timestamptz")}
    ), up as (
      insert into ${siteFreshnessEntries} as e (site_id, region, call_key, warmed_at, fresh_until, known_until)
      select site_id, region, call_key, ${at}::timestamptz, case when fresh_until is not null then least(fresh_until, ${known}) end, ${known}
      from readings order by site_id, region, call_key
      on conflict (site_id, region, call_key) do update set
        prev_fresh_until = e.fresh_until, prev_known_until = e.known_until,
        warmed_at = excluded.warmed_at, fresh_until = excluded.fresh_until, known_until = excluded.known_until
      where e.warmed_at <= excluded.warmed_at
      returning e.site_id, e.region, e.warmed_at, e.fresh_until, e.known_until, e.prev_fresh_until, e.prev_known_until
    ), changes as (
      select u.site_id, u.region, date_trunc('hour', x.at - interval '1 microsecond', 'UTC') as hour, x.known, x.fresh
      from up u cross join lateral (values
        (u.warmed_at, 1, 0, true), (u.known_until, -1, 0, true),
        (u.warmed_at, -1, 0, u.prev_known_until > u.warmed_at), (u.prev_known_until, 1, 0, u.prev_known_until > u.warmed_at),
        (u.warmed_at, 0, 1, u.fresh_until > u.warmed_at), (u.fresh_until, 0, -1, u.fresh_until > u.warmed_at),
        (u.warmed_at, 0, -1, u.prev_fresh_until > u.warmed_at), (u.prev_fresh_until, 0, 1, u.prev_fresh_until > u.warmed_at)
      ) as x(at, known, fresh, applies)
      where x.applies
    ), counted as (
      select * from ${recordset(JSON.stringify(counts), "site_id int, region text, calls int, hits int, visitor_check_calls int, visitor_check_hits int")}
    ), hourly as (
      select site_id, region, hour, 0 as calls, 0 as hits, 0 as visitor_check_calls, 0 as visitor_check_hits, known, fresh from changes
      union all
      select site_id, region, date_trunc('hour', ${at}::timestamptz, 'UTC'), calls, hits, visitor_check_calls, visitor_check_hits, 0, 0 from counted
    )
    insert into ${siteFreshnessHours} as h (site_id, region, hour, calls, hits, visitor_check_calls, visitor_check_hits, known_delta, fresh_delta)
    select site_id, region, hour, sum(calls), sum(hits), sum(visitor_check_calls), sum(visitor_check_hits), sum(known), sum(fresh)
    from hourly
    group by site_id, region, hour
    having sum(calls) <> 0 or sum(visitor_check_calls) <> 0 or sum(known) <> 0 or sum(fresh) <> 0
    order by site_id, region, hour
    on conflict (site_id, region, hour) do update set
      calls = h.calls + excluded.calls, hits = h.hits + excluded.hits,
      visitor_check_calls = h.visitor_check_calls + excluded.visitor_check_calls, visitor_check_hits = h.visitor_check_hits + excluded.visitor_check_hits,
      known_delta = h.known_delta + excluded.known_delta, fresh_delta = h.fresh_delta + excluded.fresh_delta`);
}

const floorHour = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;

/** The hours asked for: from `from`'s hour to `to`, the last 7 days by default, and only hours that have ended. */
function hoursOf(query: { from?: string; to?: string }, now: Date): { start: number; end: number } {
  const to = query.to ? new Date(query.to).getTime() : now.getTime();
  const from = query.from ? new Date(query.from).getTime() : to - DEFAULT_DAYS * DAY_MS;
  if (from >= to) throw new InvalidError("`from` must be before `to`.", [{ field: "from", message: "Not before to." }]);
  if (to - from > MAX_SPAN_DAYS * DAY_MS) throw new InvalidError(`At most ${MAX_SPAN_DAYS} days at once.`, [{ field: "to", message: `At most ${MAX_SPAN_DAYS} days after from.` }]);
  // An hour still going has no final figures: a page may yet be warmed or go stale before its end.
  return { start: floorHour(from), end: Math.min(to, floorHour(now.getTime())) };
}

type HourRow = { region: string; hour: string | Date; calls: number; hits: number; visitor_check_calls: number; visitor_check_hits: number; known_delta: number; fresh_delta: number };

/** The site's figures hour by hour over [start, end) (hour starts), from its first hour not pruned. */
async function freshnessHours(db: Database, siteId: number, period: { start: number; end: number }): Promise<SiteFreshness> {
  const [carried] = rowsOf<{ hour: string | Date | null }>(await db.execute(sql`select max(hour) as hour from ${siteFreshnessHours} where site_id = ${siteId} and carried`));
  const firstKept = carried?.hour ? new Date(carried.hour).getTime() + HOUR_MS : -Infinity;
  const start = Math.max(period.start, firstKept);
  const startAt = new Date(start).toISOString();
  const rows = rowsOf<HourRow>(
    await db.execute(sql`
      select region, null as hour, 0 as calls, 0 as hits, 0 as visitor_check_calls, 0 as visitor_check_hits, sum(known_delta)::int as known_delta, sum(fresh_delta)::int as fresh_delta
      from ${siteFreshnessHours} where site_id = ${siteId} and hour < ${startAt}::timestamptz group by region
      union all
      select region, hour, calls, hits, visitor_check_calls, visitor_check_hits, known_delta, fresh_delta
      from ${siteFreshnessHours} where site_id = ${siteId} and hour >= ${startAt}::timestamptz and hour < ${new Date(period.end).toISOString()}::timestamptz`),
  );
  const running = new Map<string, { known: number; fresh: number }>();
  const byHour = new Map<number, HourRow[]>();
  for (const row of rows) {
    const region = running.get(row.region) ?? { known: 0, fresh: 0 };
    running.set(row.region, region);
    if (row.hour === null) {
      region.known += Number(row.known_delta);
      region.fresh += Number(row.fresh_delta);
      continue;
    }
    const hour = new Date(row.hour).getTime();
    byHour.set(hour, [...(byHour.get(hour) ?? []), row]);
  }
  const regions = [...running.keys()].sort();
  const hours: SiteFreshness["hours"] = [];
  let freshSum = 0;
  let knownSum = 0;
  for (let hour = start; hour < period.end; hour += HOUR_MS) {
    let calls = 0;
    let hits = 0;
    let visitorCheckCalls = 0;
    let visitorCheckHits = 0;
    for (const row of byHour.get(hour) ?? []) {
      const region = running.get(row.region)!;
      region.known += Number(row.known_delta);
      region.fresh += Number(row.fresh_delta);
      calls += Number(row.calls);
      hits += Number(row.hits);
      visitorCheckCalls += Number(row.visitor_check_calls);
      visitorCheckHits += Number(row.visitor_check_hits);
    }
    const perRegion = regions.map((region) => ({ region, urls_known: running.get(region)!.known, urls_fresh: running.get(region)!.fresh })).filter((r) => r.urls_known > 0);
    const known = perRegion.reduce((n, r) => n + r.urls_known, 0);
    const fresh = perRegion.reduce((n, r) => n + r.urls_fresh, 0);
    knownSum += known;
    freshSum += fresh;
    hours.push({
      hour: new Date(hour).toISOString(),
      urls_known: known,
      urls_fresh: fresh,
      calls,
      hits,
      visitor_check_calls: visitorCheckCalls ? visitorCheckCalls : null,
      visitor_check_hits: visitorCheckCalls ? visitorCheckHits : null,
      regions: perRegion,
    });
  }
  return {
    site_id: siteId,
    from: new Date(start).toISOString(),
    to: new Date(Math.max(start, period.end)).toISOString(),
    fresh_share: knownSum ? freshSum / knownSum : null,
    hours,
  };
}

/** `GET /v1/sites/{siteId}/freshness`: the site's freshness and calls, hour by hour. */
export async function siteFreshness(ctx: AccountContext, siteId: number, query: { from?: string; to?: string }, now = new Date()): Promise<SiteFreshness> {
  const site = await getSite(ctx, siteId);
  return freshnessHours(ctx.db, site.id, hoursOf(query, now));
}

/** The share of the site's pages fresh over the last 7 days' hours (null: none known), for the keep-warm report. */
export async function weekFreshShare(db: Database, siteId: number, now = new Date()): Promise<number | null> {
  return (await freshnessHours(db, siteId, hoursOf({}, now))).fresh_share;
}

/**
 * With the runs' retention (lib/runs/retention.ts): forgets the entries no longer known (every change
 * they made is in the past), and folds the hours older than the plan keeps runs into one `carried`
 * row per site and region, an hour before the first one kept, so that the hours kept still add up
 * from it. Sites whose plan keeps runs keep their hours.
 */
export async function pruneFreshness(db: Database, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await db.execute(sql`delete from ${siteFreshnessEntries} where known_until < ${at}::timestamptz`);
  await db.execute(sql`
    with cut as (
      select s.id as site_id, date_trunc('hour', ${at}::timestamptz - make_interval(days => p.run_retention_days), 'UTC') - interval '1 hour' as carry_hour
      from ${sites} s join ${accounts} a on a.id = s.account_id join ${plans} p on p.id = a.plan_id
      where p.run_retention_days is not null
    ), gone as (
      delete from ${siteFreshnessHours} h using cut
      where h.site_id = cut.site_id and h.hour < cut.carry_hour
      returning h.site_id, h.region, cut.carry_hour, h.known_delta, h.fresh_delta
    )
    insert into ${siteFreshnessHours} as h (site_id, region, hour, known_delta, fresh_delta, carried)
    select site_id, region, carry_hour, sum(known_delta), sum(fresh_delta), true from gone group by site_id, region, carry_hour
    on conflict (site_id, region, hour) do update set
      known_delta = h.known_delta + excluded.known_delta, fresh_delta = h.fresh_delta + excluded.fresh_delta,
      calls = 0, hits = 0, visitor_check_calls = 0, visitor_check_hits = 0, carried = true`);
}
