import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";
import { POPULARITY_DAYS, POPULARITY_SOURCE_KINDS, TRAFFIC_READ_STATUSES, TRAFFIC_SOURCE_KINDS } from "@/lib/core/traffic";

/** A scheduled source is read once a day unless told otherwise. */
export const DEFAULT_READ_EVERY_HOURS = 24;

const name = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const readEveryHours = z
  .number()
  .int()
  .min(1, "must be at least 1")
  .max(720, "must be at most 720 (30 days)")
  .meta({ description: `Hours between scheduled reads, 1 to 720; ${DEFAULT_READ_EVERY_HOURS} (daily) when omitted. null: read only on demand (and, for a log, by upload).` });
const logUrl = z
  .string()
  .max(2_000, "must be at most 2000 characters")
  .url("must be an absolute http(s) URL")
  .refine((value) => /^https?:\/\//i.test(value), "must be an absolute http(s) URL")
  .meta({
    description:
      "Where the log is fetched from on the schedule, as CSV sources are (through the same guarded fetch: public addresses only, size-capped, gzip accepted). Omitted: the log arrives by upload only (POST …/traffic-sources/{sourceId}/upload).",
  });

const accessLog = z.object({
  kind: z.literal("access_log"),
  name: name.optional(),
  url: logUrl.optional(),
  read_every_hours: readEveryHours.nullable().optional(),
});
const plausible = z.object({
  kind: z.literal("plausible"),
  name: name.optional(),
  site_id: z.string().trim().min(1, "must not be empty").max(253, "must be at most 253 characters").meta({ description: "The site's id at Plausible: the domain it was added with (`example.com`)." }),
  api_key: z.string().min(1, "must not be empty").max(500, "must be at most 500 characters").meta({ description: "A Plausible Stats API key (Settings → API keys). Sealed at rest, never returned." }),
  read_every_hours: readEveryHours.nullable().optional(),
});
const ga4 = z.object({
  kind: z.literal("ga4"),
  name: name.optional(),
  property_id: z
    .string()
    .regex(/^\d{1,20}$/, "must be the property's numeric id (Admin → Property details)")
    .meta({ description: "The Google Analytics 4 property id: digits only." }),
  service_account_key: z.union([z.string().min(1, "must not be empty").max(20_000, "must be at most 20000 characters"), z.record(z.string(), z.unknown())]).meta({
    description:
      "The service account's JSON key file, as text or as the object itself; the account needs the Viewer role on the property. Sealed at rest, never returned: the source shows its `client_email` only.",
  }),
  read_every_hours: readEveryHours.nullable().optional(),
});

export const createTrafficSourceBody = z.discriminatedUnion("kind", [accessLog, plausible, ga4]).meta({
  id: "CreateTrafficSourceRequest",
  description:
    "`access_log`: a web server's or CDN's access log, uploaded or fetched from `url` (/docs/site-owners/traffic-logs lists the formats). `plausible` and `ga4`: pageviews per page over the last 30 days from the analytics tool (/docs/site-owners/traffic-analytics).",
});
export type CreateTrafficSourceInput = z.output<typeof createTrafficSourceBody>;

const trafficReadCountsSchema = z
  .object({
    lines: z.number().int().meta({ description: "Lines read (an analytics read: rows answered)." }),
    counted: z.number().int().meta({ description: "Visits counted into the table." }),
    broken: z.number().int().meta({ description: "Lines no format could read (counted, never fatal unless no line could be read)." }),
    paths: z.number().int().meta({ description: "Distinct paths counted." }),
    skipped: z
      .object({ method: z.number().int(), status: z.number().int(), host: z.number().int(), asset: z.number().int(), bot: z.number().int() })
      .meta({ description: "Lines left out, by why: not a GET, not a success (2xx or 304), another host, an asset (by extension or content type), a bot (by user agent)." }),
    format: z.string().nullable().optional().meta({ description: "The log format recognised: combined, common, json, caddy, cloudflare or cloudfront." }),
    truncated: z.boolean().optional().meta({ description: "The log held more distinct paths than a read keeps; the least visited were dropped." }),
  })
  .meta({ id: "TrafficReadCounts" });

export const trafficSourceSchema = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    kind: z.enum(TRAFFIC_SOURCE_KINDS),
    name: z.string(),
    settings: z
      .object({
        url: z.string().optional(),
        site_id: z.string().optional(),
        property_id: z.string().optional(),
        client_email: z.string().optional(),
      })
      .meta({ description: "What is not secret: the log's `url`, Plausible's `site_id`, GA4's `property_id` and the key's `client_email`. Keys are never returned." }),
    read_every_hours: z.number().int().nullable(),
    next_read_at: timestamp.nullable().meta({ description: "When the schedule reads it next; null without a schedule, and while a read is under way." }),
    status: z.enum(TRAFFIC_READ_STATUSES).meta({ description: "The last read's: `never` (not read yet), `reading`, `ok` or `failed` (`message` says why; the visits of the read before are kept)." }),
    message: z.string().nullable().meta({ description: "The last read's outcome in a sentence." }),
    last_read_at: timestamp.nullable(),
    counts: trafficReadCountsSchema.nullable().meta({ description: "What the last read that stored visits counted." }),
    latest_day: z
      .string()
      .nullable()
      .meta({ description: `The newest day (UTC) it has visits for: its ${POPULARITY_DAYS} days in the table end there.` }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "TrafficSource" });
export type TrafficSourcePayload = z.input<typeof trafficSourceSchema>;

export const trafficSourceListSchema = z.object({ data: z.array(trafficSourceSchema) }).meta({ id: "TrafficSourceList" });

export const trafficQuery = z.object({
  format: z.enum(["json", "csv"]).optional().meta({ description: "`csv`: the whole table (not one page) as a CSV download: path, url, visits, then one column per source." }),
});

const popularityRowSchema = z
  .object({
    path: z.string().meta({ description: "The site-relative path, with its query only where the site's sitemaps or URL templates keep one." }),
    url: z.string().meta({ description: "The path on the site's domain." }),
    visits: z.number().meta({
      description: `Visits of the last ${POPULARITY_DAYS} days: the most any one source counted (a log, an analytics tool and the beacon see the same visitors; adding them would count a visit twice).`,
    }),
    sources: z.array(z.object({ source_id: z.number().int().nullable().meta({ description: "null for the beacon." }), kind: z.enum(POPULARITY_SOURCE_KINDS), visits: z.number() })).meta({
      description:
        "Each source's count for the path. The beacon's are the page views it kept, divided by PREHEAT_BEACON_SAMPLE (a rate of 0.1 keeps one view in ten), so that it stands beside the others.",
    }),
  })
  .meta({ id: "PopularityRow" });

export const trafficPageSchema = z
  .object({
    data: z.array(popularityRowSchema),
    total: z.number().int().meta({ description: "Paths in the table." }),
    total_visits: z.number().meta({ description: "Visits of every path (each path's `visits`, summed)." }),
    days: z.number().int().meta({ description: "The days the table looks back over." }),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "TrafficPage", description: "The site's popularity table, most visited first (ties by path)." });
