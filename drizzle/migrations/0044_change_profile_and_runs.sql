DROP INDEX "runs_one_active_warm_per_site";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "change_boost_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_gathering_changes_per_site" ON "runs" USING btree ("site_id") WHERE "runs"."status" = 'pending' and "runs"."trigger" = 'changes';--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_active_warm_per_site" ON "runs" USING btree ("site_id") WHERE "runs"."status" in ('pending', 'running') and "runs"."kind" = 'warm' and "runs"."trigger" is distinct from 'changes';