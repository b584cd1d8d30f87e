ALTER TABLE "boosts" ADD COLUMN "verify" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "purpose" text DEFAULT 'warm' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "not_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "verify" boolean DEFAULT false NOT NULL;