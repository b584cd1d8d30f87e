-- The columns added to the tables with a row per call or per URL since 0032 are sampled as theirs are
-- (10, a tenth of the default: lib/db/embedded-maintenance.ts analyses them on the server's thread),
-- and keep-warm's table, a row per URL × variant × region kept warm, joins them.
ALTER TABLE "run_results"
  ALTER COLUMN "blocked_by" SET STATISTICS 10, ALTER COLUMN "shared_lifetime_seconds" SET STATISTICS 10,
  ALTER COLUMN "age_seconds" SET STATISTICS 10, ALTER COLUMN "fresh_until" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "keep_warm_entries"
  ALTER COLUMN "boost_id" SET STATISTICS 10, ALTER COLUMN "site_id" SET STATISTICS 10, ALTER COLUMN "account_id" SET STATISTICS 10,
  ALTER COLUMN "region" SET STATISTICS 10, ALTER COLUMN "call_key" SET STATISTICS 10, ALTER COLUMN "call" SET STATISTICS 10,
  ALTER COLUMN "priority" SET STATISTICS 10, ALTER COLUMN "due_at" SET STATISTICS 10, ALTER COLUMN "reason" SET STATISTICS 10,
  ALTER COLUMN "lifetime_seconds" SET STATISTICS 10, ALTER COLUMN "stale_while_revalidate_seconds" SET STATISTICS 10,
  ALTER COLUMN "fresh_until" SET STATISTICS 10, ALTER COLUMN "last_warmed_at" SET STATISTICS 10;
