ALTER TABLE "run_batches" ADD COLUMN "dispatched_calls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "bypassed_calls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "recent_outcomes" text DEFAULT '' NOT NULL;