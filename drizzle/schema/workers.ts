import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Worker processes as they last reported in: which regions' calls each takes (empty: the regions
 * no regional worker takes). A regional worker seen within a minute takes its regions' runs, and
 * GET /v1/me says their calls leave through it.
 */
export const workers = pgTable("workers", {
  id: text("id").primaryKey(),
  regions: text("regions").array().notNull(),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
  /** When the process started, and the warming calls it had in flight when it last reported in (the operator console). */
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  callsInFlight: integer("calls_in_flight").notNull().default(0),
});
