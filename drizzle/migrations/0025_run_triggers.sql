ALTER TABLE "runs" ADD COLUMN "trigger" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "trigger_label" text;