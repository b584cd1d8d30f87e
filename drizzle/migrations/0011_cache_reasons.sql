ALTER TABLE "run_batches" ADD COLUMN "not_cached" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "hit_ms_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "miss_ms_total" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "pop_figures" jsonb DEFAULT '{}'::jsonb NOT NULL;