-- A changes run sealed past its delay (open_until null, waiting to be planned) leaves room for the site's next gathering run.
DROP INDEX IF EXISTS "runs_one_gathering_changes_per_site";--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_gathering_changes_per_site" ON "runs" USING btree ("site_id") WHERE "runs"."status" = 'pending' and "runs"."trigger" = 'changes' and "runs"."open_until" is not null;
