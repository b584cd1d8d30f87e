import { z } from "zod";

/** Where a site's visits can be learned from (POST /v1/sites/{siteId}/traffic-sources). The beacon needs no source: its data joins the table once it has some. */
export const TRAFFIC_SOURCE_KINDS = ["access_log", "plausible", "ga4"] as const;
export type TrafficSourceKind = (typeof TRAFFIC_SOURCE_KINDS)[number];

/** What the popularity table names each source's visits by: a source's kind, and the beacon. */
export const POPULARITY_SOURCE_KINDS = [...TRAFFIC_SOURCE_KINDS, "beacon"] as const;
export type PopularitySourceKind = (typeof POPULARITY_SOURCE_KINDS)[number];

/** A traffic source's settings that are not secret, per kind (the secret is sealed apart). */
export type TrafficSourceSettings = {
  /** access_log: where the log is fetched from on the schedule; absent: uploads only. */
  url?: string;
  /** plausible: the site id as Plausible names it (its domain). */
  site_id?: string;
  /** ga4: the property id (digits). */
  property_id?: string;
  /** ga4: the service account the key belongs to (its `client_email`), shown so that the owner knows which. */
  client_email?: string;
};

/** The statuses of a source's last read. */
export const TRAFFIC_READ_STATUSES = ["never", "reading", "ok", "failed"] as const;
export type TrafficReadStatus = (typeof TRAFFIC_READ_STATUSES)[number];

/**
 * What a read of an access log found, line by line: every line is one of counted, broken or a
 * reason it was left out. An analytics read fills `counted` (visits) and `paths`.
 */
export type TrafficReadCounts = {
  /** Lines read (an analytics read: rows). */
  lines: number;
  /** Visits counted into the table. */
  counted: number;
  /** Lines that could not be read as the format says (shown, never fatal unless nothing could be read). */
  broken: number;
  /** Distinct paths the read counted visits for. */
  paths: number;
  /** Lines left out, by why. */
  skipped: {
    /** Not a GET (HEAD, POST…). */
    method: number;
    /** Not a success (2xx, or 304). */
    status: number;
    /** Another host than the site's. */
    host: number;
    /** An image, a script, a stylesheet, a font… (by extension or content type). */
    asset: number;
    /** A crawler, a monitor or a script (by user agent). */
    bot: number;
  };
  /** The log's format as recognised: combined, common, json, caddy, cloudflare, cloudfront. */
  format?: string | null;
  /** The log had more distinct paths than a read keeps: the least visited were dropped (their visits are not counted). */
  truncated?: boolean;
};

/** The device classes the beacon reports. */
export const DEVICE_CLASSES = ["mobile", "tablet", "desktop"] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** A page view's cache verdict as the beacon reads it from Server-Timing. */
export const FIELD_CACHE_VERDICTS = ["hit", "miss", "unknown"] as const;
export type FieldCacheVerdict = (typeof FIELD_CACHE_VERDICTS)[number];

/** The days the popularity table looks back over. */
export const POPULARITY_DAYS = 30;

/** The visits (last POPULARITY_DAYS days) of the pages a run or a selection warms, beside the site's total. */
export type VisitShare = { visits: number; total: number };

const shareFields = {
  visits: z.number().meta({ description: "Visits of the last 30 days whose pages these are (each page once)." }),
  total_visits: z.number().meta({ description: "Every visit of the site's popularity table (GET /v1/sites/{siteId}/traffic), the same 30 days." }),
  share: z.number().nullable().meta({ description: "`visits` ÷ `total_visits`, 0 to 1; null when the table counts no visit." }),
};

export const runVisitShareSchema = z.object(shareFields).meta({
  id: "RunVisitShare",
  description: "The share of the site's visits (the popularity table's last 30 days, when the run was planned) whose pages the run warms. Null when the site had no traffic data then.",
});

export const estimateVisitShareSchema = z
  .object({
    urls: z.number().int().meta({ description: "URLs a run would warm (those the call limit covers)." }),
    of_urls: z.number().int().meta({ description: "URLs the boost selects before the call limit." }),
    ...shareFields,
  })
  .meta({
    id: "EstimateVisitShare",
    description: 'What share of the last 30 days\' visits the URLs a run would warm carry ("these 2,000 of 48,000 URLs carry 81 % of visits"). Null when the site has no traffic data.',
  });

/** A stored share as the API says it. */
export function visitShareOutput(share: VisitShare): z.output<typeof runVisitShareSchema> {
  return { visits: share.visits, total_visits: share.total, share: share.total > 0 ? share.visits / share.total : null };
}
