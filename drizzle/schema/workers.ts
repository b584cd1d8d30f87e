import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Worker processes as they last reported in: which regions' calls each takes (empty: the regions
 * no regional worker takes). A regional worker seen within a minute takes its regions' runs, and
 * GET /v1/me says their calls leave through it.
 */
export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  regions: text("regions").array().notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
});
