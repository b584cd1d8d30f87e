ALTER TABLE "runs" ADD COLUMN "slowdowns" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "max_concurrency" integer;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "max_requests_per_second" double precision;