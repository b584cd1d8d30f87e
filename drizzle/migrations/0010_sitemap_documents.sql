CREATE TABLE "sitemap_documents" (
	"sitemap_id" integer NOT NULL,
	"generation" integer NOT NULL,
	"url" text NOT NULL,
	"tally" jsonb NOT NULL,
	CONSTRAINT "sitemap_documents_sitemap_id_generation_url_pk" PRIMARY KEY("sitemap_id","generation","url")
);
--> statement-breakpoint
ALTER TABLE "sitemap_documents" ADD CONSTRAINT "sitemap_documents_sitemap_id_sitemaps_id_fk" FOREIGN KEY ("sitemap_id") REFERENCES "public"."sitemaps"("id") ON DELETE cascade ON UPDATE no action;