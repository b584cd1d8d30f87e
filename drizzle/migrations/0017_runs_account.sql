ALTER TABLE "runs" ADD COLUMN "account_id" integer;--> statement-breakpoint
UPDATE "runs" SET "account_id" = "sites"."account_id" FROM "sites" WHERE "sites"."id" = "runs"."site_id";--> statement-breakpoint
ALTER TABLE "runs" ALTER COLUMN "account_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "runs_account_idx" ON "runs" USING btree ("account_id","kind","id");
