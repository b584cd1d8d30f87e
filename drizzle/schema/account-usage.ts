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

/**
 * The month's quota lines an organization reached (lib/runs/quota.ts): 80 % and 100 % of its calls,
 * each once per month, written with the count that crossed it (or the refusal at 100 %), in the same
 * transaction. The cron tick e-mails the owners of those not e-mailed yet, so none is lost to a crash.
 */
export const quotaNotices = pgTable(
  "quota_notices",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    percent: integer("percent").notNull(),
    reachedAt: timestamp("reached_at", { withTimezone: true }).notNull().defaultNow(),
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.periodStart, t.percent] })],
);
