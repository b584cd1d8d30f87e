ALTER TABLE "run_results" ADD COLUMN "shared_lifetime_seconds" integer;--> statement-breakpoint
ALTER TABLE "run_results" ADD COLUMN "age_seconds" integer;--> statement-breakpoint
ALTER TABLE "run_results" ADD COLUMN "fresh_until" timestamp with time zone;