CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"regions" text[] NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "egress_calls" jsonb DEFAULT '{}'::jsonb NOT NULL;