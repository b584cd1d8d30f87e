-- The tables with a row per call or per URL grow to millions of rows, and the embedded database analyses
-- them on the server's only thread (lib/db/embedded-maintenance.ts), as autovacuum would on a server. At
-- the default statistics target (100) an ANALYZE reads a sample of 30,000 rows: 165 to 180 ms for a
-- 1,000,000-row run_results on PGlite, against 19 to 21 ms at 10 (3,000 rows), which still estimates its
-- runs' count within a tenth. Their statements go by their run or sitemap through an index; nothing reads
-- them by a range of values that finer histograms would serve.
ALTER TABLE "run_results"
  ALTER COLUMN "run_id" SET STATISTICS 10, ALTER COLUMN "batch_seq" SET STATISTICS 10, ALTER COLUMN "call_index" SET STATISTICS 10,
  ALTER COLUMN "region" SET STATISTICS 10, ALTER COLUMN "url" SET STATISTICS 10, ALTER COLUMN "user_agent" SET STATISTICS 10,
  ALTER COLUMN "language" SET STATISTICS 10, ALTER COLUMN "cookie_set" SET STATISTICS 10, ALTER COLUMN "encoding" SET STATISTICS 10,
  ALTER COLUMN "status_code" SET STATISTICS 10, ALTER COLUMN "cache_status" SET STATISTICS 10, ALTER COLUMN "pop" SET STATISTICS 10,
  ALTER COLUMN "response_time_ms" SET STATISTICS 10, ALTER COLUMN "reason" SET STATISTICS 10, ALTER COLUMN "verified_cache_status" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "sitemap_urls"
  ALTER COLUMN "id" SET STATISTICS 10, ALTER COLUMN "sitemap_id" SET STATISTICS 10, ALTER COLUMN "generation" SET STATISTICS 10,
  ALTER COLUMN "url" SET STATISTICS 10, ALTER COLUMN "lastmod" SET STATISTICS 10, ALTER COLUMN "priority" SET STATISTICS 10;--> statement-breakpoint
ALTER TABLE "run_url_states"
  ALTER COLUMN "run_id" SET STATISTICS 10, ALTER COLUMN "url" SET STATISTICS 10, ALTER COLUMN "lastmod" SET STATISTICS 10;
