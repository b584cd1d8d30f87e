DROP INDEX "sitemap_urls_sitemap_url_key";--> statement-breakpoint
DROP INDEX "sitemap_urls_sitemap_idx";--> statement-breakpoint
ALTER TABLE "sitemap_urls" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sitemaps" ADD COLUMN "urls_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sitemaps" ADD COLUMN "processing_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sitemap_urls_sitemap_generation_url_key" ON "sitemap_urls" USING btree ("sitemap_id","generation","url");