ALTER TABLE "accounts" ADD COLUMN "suspension_blocks_new_organizations" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "run_results" ADD COLUMN "blocked_by" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("account_id","target_type","target_id","id");