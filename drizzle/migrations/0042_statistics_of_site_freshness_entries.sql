-- The site's freshness entries, a row per URL × variant × region, are sampled as the other tables with
-- a row per URL are (10, a tenth of the default: lib/db/embedded-maintenance.ts analyses them on the
-- server's thread).
ALTER TABLE "site_freshness_entries"
  ALTER COLUMN "site_id" SET STATISTICS 10, ALTER COLUMN "region" SET STATISTICS 10, ALTER COLUMN "call_key" SET STATISTICS 10,
  ALTER COLUMN "warmed_at" SET STATISTICS 10, ALTER COLUMN "fresh_until" SET STATISTICS 10, ALTER COLUMN "known_until" SET STATISTICS 10,
  ALTER COLUMN "prev_fresh_until" SET STATISTICS 10, ALTER COLUMN "prev_known_until" SET STATISTICS 10;
