import { lt, sql } from "drizzle-orm";
import { fieldViews } from "@/drizzle/schema";
import { publicBaseUrl } from "@/lib/config/base-url";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import { InvalidError } from "@/lib/core/errors";
import { DEVICE_CLASSES, type DeviceClass } from "@/lib/core/traffic";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { getSite } from "@/lib/sites/service";
import type { SiteField } from "./field-schemas";
import { quantileMs } from "./ttfb";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The longest period one answer covers: a month of hours. */
const MAX_SPAN_DAYS = 31;
const DEFAULT_HOURS = 24;

/** The tag a site owner pastes into the site's pages (docs/guide/site-owners/beacon.md). */
function scriptTag(beaconKey: string): string {
  return `<script async src="${publicBaseUrl()}/beacon.js" data-site="${beaconKey}"></script>`;
}

/** The hours asked for: from `from`'s hour to `to`, by default the last 24 hours, the one going on the last of them. */
function periodOf(query: { from?: string; to?: string }, now: Date): { start: number; end: number } {
  // By default the period ends with the hour going on: an answer is the same all through the hour (its figures aside).
  const to = query.to ? new Date(query.to).getTime() : Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const from = query.from ? new Date(query.from).getTime() : to - DEFAULT_HOURS * HOUR_MS;
  if (from >= to) throw new InvalidError("`from` must be before `to`.", [{ field: "from", message: "Not before to." }]);
  if (to - from > MAX_SPAN_DAYS * DAY_MS) throw new InvalidError(`At most ${MAX_SPAN_DAYS} days at once.`, [{ field: "to", message: `At most ${MAX_SPAN_DAYS} days after from.` }]);
  return { start: Math.floor(from / HOUR_MS) * HOUR_MS, end: to };
}

type Figures = SiteField["totals"];

/** Views counted by verdict and by TTFB bucket, summed as rows come. */
class Tally {
  hits = 0;
  misses = 0;
  unknown = 0;
  readonly buckets = new Map<number, number>();

  add(cache: string, bucket: number, views: number): void {
    if (cache === "hit") this.hits += views;
    else if (cache === "miss") this.misses += views;
    else this.unknown += views;
    this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + views);
  }

  get views(): number {
    return this.hits + this.misses + this.unknown;
  }

  figures(): Figures {
    const judged = this.hits + this.misses;
    return {
      views: this.views,
      hits: this.hits,
      misses: this.misses,
      unknown: this.unknown,
      hit_ratio: judged ? this.hits / judged : null,
      ttfb_p50_ms: quantileMs(this.buckets, 0.5),
      ttfb_p75_ms: quantileMs(this.buckets, 0.75),
    };
  }
}

const tallyOf = <K>(map: Map<K, Tally>, key: K): Tally => {
  let tally = map.get(key);
  if (!tally) map.set(key, (tally = new Tally()));
  return tally;
};

type Row = { hour: string | Date | null; device: string | null; pop: string | null; cache: string; ttfb_bucket: number; views: number | string; by: number };

/**
 * `GET /v1/sites/{siteId}/field`: what the site's visitors got, from the beacon's page views: per
 * hour, per device class and per country of the CDN's PoP, each with its hit ratio and TTFB
 * percentiles. One statement sums the views per verdict and TTFB bucket for the three groupings.
 */
export async function siteField(ctx: AccountContext, siteId: number, query: { from?: string; to?: string }, now = new Date()): Promise<SiteField> {
  const site = await getSite(ctx, siteId);
  const period = periodOf(query, now);
  const rows = rowsOf<Row>(
    await ctx.db.execute(sql`
      select hour, device, pop, cache, ttfb_bucket, sum(views)::int as views, grouping(hour, device, pop) as by
      from ${fieldViews}
      where site_id = ${site.id} and hour >= ${new Date(period.start).toISOString()}::timestamptz and hour < ${new Date(period.end).toISOString()}::timestamptz
      group by grouping sets ((hour, cache, ttfb_bucket), (device, cache, ttfb_bucket), (pop, cache, ttfb_bucket))`),
  );
  const total = new Tally();
  const hours = new Map<number, Tally>();
  const devices = new Map<DeviceClass, Tally>();
  const pops = new Map<string, Tally>();
  for (const row of rows) {
    const views = Number(row.views);
    // grouping(hour, device, pop): 0b011 when grouped by hour, 0b101 by device, 0b110 by pop.
    if (row.hour !== null && Number(row.by) === 0b011) {
      tallyOf(hours, new Date(row.hour).getTime()).add(row.cache, row.ttfb_bucket, views);
      total.add(row.cache, row.ttfb_bucket, views);
    } else if (row.device !== null && Number(row.by) === 0b101) tallyOf(devices, row.device as DeviceClass).add(row.cache, row.ttfb_bucket, views);
    else if (row.pop && Number(row.by) === 0b110) tallyOf(pops, row.pop).add(row.cache, row.ttfb_bucket, views);
  }
  const empty = new Tally();
  const hourList: SiteField["hours"] = [];
  for (let hour = period.start; hour < period.end; hour += HOUR_MS) hourList.push({ hour: new Date(hour).toISOString(), ...(hours.get(hour) ?? empty).figures() });
  return {
    site_id: site.id,
    from: new Date(period.start).toISOString(),
    to: new Date(period.end).toISOString(),
    sample_rate: setting("PREHEAT_BEACON_SAMPLE"),
    beacon_key: site.beaconKey,
    script_tag: scriptTag(site.beaconKey),
    totals: total.figures(),
    hours: hourList,
    devices: DEVICE_CLASSES.filter((device) => devices.has(device)).map((device) => ({ device, ...devices.get(device)!.figures() })),
    pop_regions: [...pops.entries()].sort((a, b) => b[1].views - a[1].views || (a[0] < b[0] ? -1 : 1)).map(([country, tally]) => ({ country, ...tally.figures() })),
  };
}

/** The days the beacon's hours are kept: the popularity table's 30 and the field endpoint's 31-day ranges, with room to compare months. */
export const FIELD_RETENTION_DAYS = 90;

/** Drops the beacon's hours past FIELD_RETENTION_DAYS (the minute's cron tick; an index range on `hour`: nothing to do on most ticks). */
export async function pruneFieldViews(db: Database, now = new Date()): Promise<void> {
  await db.delete(fieldViews).where(lt(fieldViews.hour, new Date(now.getTime() - FIELD_RETENTION_DAYS * 86_400_000)));
}
