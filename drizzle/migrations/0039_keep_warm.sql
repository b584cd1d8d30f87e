CREATE TABLE "keep_warm_entries" (
	"boost_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"region" text NOT NULL,
	"call_key" text NOT NULL,
	"call" jsonb NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"reason" text,
	"lifetime_seconds" integer,
	"stale_while_revalidate_seconds" integer,
	"fresh_until" timestamp with time zone,
	"last_warmed_at" timestamp with time zone,
	CONSTRAINT "keep_warm_entries_boost_id_region_call_key_pk" PRIMARY KEY("boost_id","region","call_key")
);
--> statement-breakpoint
DROP INDEX "runs_one_pending_per_boost";--> statement-breakpoint
DROP INDEX "runs_one_running_per_boost";--> statement-breakpoint
ALTER TABLE "boosts" ADD COLUMN "keep_warm" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "boosts" ADD COLUMN "keep_warm_lead" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "boosts" ADD COLUMN "monthly_call_budget" integer;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "open_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "keep_warm_entries" ADD CONSTRAINT "keep_warm_entries_boost_id_boosts_id_fk" FOREIGN KEY ("boost_id") REFERENCES "public"."boosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keep_warm_entries_due_idx" ON "keep_warm_entries" USING btree ("due_at") WHERE "keep_warm_entries"."due_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_keep_warm_per_boost" ON "runs" USING btree ("boost_id") WHERE "runs"."status" in ('pending', 'running') and "runs"."trigger" = 'keep_warm';--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_pending_per_boost" ON "runs" USING btree ("boost_id") WHERE "runs"."status" = 'pending' and "runs"."kind" = 'boost' and "runs"."trigger" is distinct from 'keep_warm';--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_running_per_boost" ON "runs" USING btree ("boost_id") WHERE "runs"."status" = 'running' and "runs"."kind" = 'boost' and "runs"."trigger" is distinct from 'keep_warm';