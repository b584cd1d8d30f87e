import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { PlannedCall } from "@/lib/core/calls";
import { boosts } from "./boosts";

/**
 * One URL × variant × region a keep-warm boost keeps warm (ADR 0010): when its next re-warm is due,
 * and what its last answer said of its shared-cache lifetime. Written when a call of the boost is
 * recorded; claimed by the keep-warm tick through the index on `due_at`, which holds only the entries
 * that are chased, so that finding what is due costs what is due, not what is kept.
 */
export const keepWarmEntries = pgTable(
  "keep_warm_entries",
  {
    boostId: integer("boost_id")
      .notNull()
      .references(() => boosts.id, { onDelete: "cascade" }),
    /** The boost's site and organization, kept here so that a claim needs no join. */
    siteId: integer("site_id").notNull(),
    accountId: integer("account_id").notNull(),
    region: text("region").notNull(),
    /** The call's URL and variant (lib/runs/calls.ts variantKey), the entry's identity within the boost and region. */
    callKey: text("call_key").notNull(),
    call: jsonb("call").$type<PlannedCall>().notNull(),
    /** Its place in the boost's URL order: a budget too small for every entry keeps the first ones warm. */
    priority: integer("priority").notNull().default(0),
    /** When the next re-warm goes out; null: not chased (`reason` says why). */
    dueAt: timestamp("due_at", { withTimezone: true }),
    /** Why the entry is not chased (not storable, a lifetime under the floor, unknown); null when it is. */
    reason: text("reason"),
    lifetimeSeconds: integer("lifetime_seconds"),
    staleWhileRevalidateSeconds: integer("stale_while_revalidate_seconds"),
    freshUntil: timestamp("fresh_until", { withTimezone: true }),
    lastWarmedAt: timestamp("last_warmed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.boostId, t.region, t.callKey] }), index("keep_warm_entries_due_idx").on(t.dueAt).where(sql`${t.dueAt} is not null`)],
);
