import { bigint, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * Calls counted against each account's monthly quota (lib/runs/quota.ts): the planned calls of
 * the runs created in the month (UTC), added when a warm is queued and when a boost run is planned.
 * One row to read per warm, however many runs the month holds; a deleted site's runs still count.
 */
export const accountUsage = pgTable(
  "account_usage",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    plannedCalls: bigint("planned_calls", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.periodStart] })],
);
