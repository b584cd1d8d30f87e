import { date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import type { TrafficReadCounts, TrafficSourceSettings } from "@/lib/core/traffic";
import { accounts } from "./accounts";
import { id, timestamps } from "./columns";
import { sites } from "./sites";

/**
 * Where a site's visits are learned from (lib/traffic): an access log (uploaded, or fetched from a
 * URL), Plausible or Google Analytics 4. Each is read on its schedule and on demand; its last read's
 * status and counts stay on the row.
 */
export const trafficSources = pgTable(
  "traffic_sources",
  {
    id: id(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** access_log, plausible or ga4 (lib/core/traffic.ts TRAFFIC_SOURCE_KINDS). */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    /** What is not secret: the log's URL, Plausible's site id, GA4's property id and service account. */
    settings: jsonb("settings").$type<TrafficSourceSettings>().notNull().default({}),
    /** Plausible's API key or GA4's service-account key, sealed with lib/secrets; never returned. */
    secret: text("secret"),
    /** Hours between scheduled reads; null: read on demand (and by upload) only. */
    readEveryHours: integer("read_every_hours"),
    /** When the schedule reads it next; null while it has no schedule or a read is under way. */
    nextReadAt: timestamp("next_read_at", { withTimezone: true }),
    /** never, reading, ok or failed. */
    lastStatus: text("last_status").notNull().default("never"),
    lastReadAt: timestamp("last_read_at", { withTimezone: true }),
    /** The last read's outcome in a sentence (why it failed, what it left out). */
    lastMessage: text("last_message"),
    lastCounts: jsonb("last_counts").$type<TrafficReadCounts>(),
    /** The newest day it has visits for: its 30 days end there (an access log may be older than today). */
    latestDay: date("latest_day", { mode: "string" }),
    ...timestamps,
  },
  (t) => [index("traffic_sources_site_idx").on(t.siteId), index("traffic_sources_next_read_idx").on(t.nextReadAt)],
);

/**
 * A source's visits per day and path: the popularity table is summed from it (lib/traffic/popularity.ts).
 * A read replaces the days it covers, so that reading one log twice counts its visits once. Analytics
 * reads hold one row per path, on the day of the read, for the 30 days they asked about.
 */
export const trafficVisits = pgTable(
  "traffic_visits",
  {
    sourceId: integer("source_id")
      .notNull()
      .references(() => trafficSources.id, { onDelete: "cascade" }),
    siteId: integer("site_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    /** The site-relative path, with its query only where the site's sitemaps or URL templates keep one. */
    path: text("path").notNull(),
    visits: integer("visits").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.day, t.path] }), index("traffic_visits_site_path_idx").on(t.siteId, t.path)],
);

/**
 * The beacon's page views (field data), counted per hour, path, device class, region of the PoP,
 * cache verdict and time-to-first-byte bucket: hit ratios and TTFB percentiles are summed from them,
 * and nothing about a visitor is kept.
 */
export const fieldViews = pgTable(
  "field_views",
  {
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    path: text("path").notNull(),
    /** mobile, tablet or desktop. */
    device: text("device").notNull(),
    /** The region of the PoP the CDN named ('' when it names none). */
    pop: text("pop").notNull(),
    /** hit, miss or unknown (no verdict in Server-Timing). */
    cache: text("cache").notNull(),
    /** lib/traffic/field TTFB bucket; -1 when the browser gave no time. */
    ttfbBucket: smallint("ttfb_bucket").notNull(),
    views: integer("views").notNull(),
  },
  // By hour: the cron tick drops the hours past FIELD_RETENTION_DAYS without reading the table.
  (t) => [primaryKey({ columns: [t.siteId, t.hour, t.path, t.device, t.pop, t.cache, t.ttfbBucket] }), index("field_views_hour_idx").on(t.hour)],
);
