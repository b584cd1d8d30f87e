import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sites } from "./sites";

/**
 * A site's URL × variant × region as Preheat last read it (ADR 0011): when it was last answered, until
 * when that answer is fresh in a shared cache, and until when the entry counts as known. Written by the
 * recording of every warming call of the site, whatever its run. The previous values come back from
 * the same upsert (`prev_*`, set from the row as it was when the upsert locked it), so that the
 * hourly figures move by exactly what this answer changed, even while another worker records the same
 * entry. A row whose `known_until` has passed changes no figure any more, and is pruned.
 */
export const siteFreshnessEntries = pgTable(
  "site_freshness_entries",
  {
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    region: text("region").notNull(),
    /** The call's URL and variant (lib/runs/calls.ts variantKey), as keep-warm keys its entries. */
    callKey: text("call_key").notNull(),
    /** When the last answer was recorded. */
    warmedAt: timestamp("warmed_at", { withTimezone: true }).notNull(),
    /** The last answer's fresh_until (lib/warm/freshness.ts), never past `known_until`; null: not storable. */
    freshUntil: timestamp("fresh_until", { withTimezone: true }),
    /** `warmed_at` plus the days an entry stays known without another answer (lib/freshness/history.ts). */
    knownUntil: timestamp("known_until", { withTimezone: true }).notNull(),
    prevFreshUntil: timestamp("prev_fresh_until", { withTimezone: true }),
    prevKnownUntil: timestamp("prev_known_until", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.region, t.callKey] }), index("site_freshness_entries_known_until_idx").on(t.knownUntil)],
);

/**
 * A site's figures per region and UTC hour (ADR 0011). `calls`, `hits` and the visitor checks' are
 * the calls recorded in the hour. `known_delta` and `fresh_delta` are changes: the entries known (or
 * fresh) at an hour's end are the sum of the deltas of every hour up to it, so that one answer changes
 * two or four rows (when it was recorded, when it goes stale, when it stops being known), not every
 * hour it stays fresh. Pruning folds the hours older than the retention into one `carried` row.
 */
export const siteFreshnessHours = pgTable(
  "site_freshness_hours",
  {
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    region: text("region").notNull(),
    /** The hour's start (UTC). */
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    calls: integer("calls").notNull().default(0),
    hits: integer("hits").notNull().default(0),
    visitorCheckCalls: integer("visitor_check_calls").notNull().default(0),
    visitorCheckHits: integer("visitor_check_hits").notNull().default(0),
    knownDelta: integer("known_delta").notNull().default(0),
    freshDelta: integer("fresh_delta").notNull().default(0),
    /** The deltas of the pruned hours before it, folded in: the hours up to this one have no figures. */
    carried: boolean("carried").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.region, t.hour] }), index("site_freshness_hours_carried_idx").on(t.siteId).where(sql`${t.carried}`)],
);
