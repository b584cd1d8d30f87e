ALTER TABLE "sites" ADD COLUMN "crawl_delay_seconds" double precision;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "robots_read_at" timestamp with time zone;