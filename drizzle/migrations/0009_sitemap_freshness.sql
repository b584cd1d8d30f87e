ALTER TABLE "sitemaps" ADD COLUMN "last_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sitemaps" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "sitemaps" ADD COLUMN "last_modified" text;--> statement-breakpoint
UPDATE "sitemaps" SET "last_changed_at" = "last_processed_at" WHERE "status" = 'done';