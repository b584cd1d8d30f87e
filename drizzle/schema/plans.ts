import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { id, timestamps } from "./columns";

/**
 * What an organization may use, set by the operator (lib/accounts/plans.ts). Each limit left null
 * is the service's configuration (PREHEAT_MONTHLY_CALL_QUOTA, PREHEAT_SITE_MAX_CONCURRENCY,
 * PREHEAT_RUN_RESULTS_MAX; no cap on sites; every region; runs kept until deleted), so that an
 * organization on no plan, as on a self-hosted install, has exactly the documented defaults.
 */
export const plans = pgTable("plans", {
  id: id(),
  name: text("name").notNull().unique(),
  monthlyCalls: integer("monthly_calls"),
  maxSites: integer("max_sites"),
  maxSiteConcurrency: integer("max_site_concurrency"),
  regions: text("regions").array(),
  runResultsMax: integer("run_results_max"),
  verification: boolean("verification").notNull().default(true),
  runRetentionDays: integer("run_retention_days"),
  ...timestamps,
});
