import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sites } from "./sites";

/**
 * A site's concurrency, shared by the worker processes warming it: each holds a number of slots,
 * never more in all than the site's limit, renewed while it warms there. A worker that dies stops
 * renewing, and its slots go back to the others when they expire.
 */
export const siteSlots = pgTable(
  "site_slots",
  {
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    workerId: text("worker_id").notNull(),
    slots: integer("slots").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.workerId] })],
);
