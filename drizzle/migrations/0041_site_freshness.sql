CREATE TABLE "site_freshness_entries" (
	"site_id" integer NOT NULL,
	"region" text NOT NULL,
	"call_key" text NOT NULL,
	"warmed_at" timestamp with time zone NOT NULL,
	"fresh_until" timestamp with time zone,
	"known_until" timestamp with time zone NOT NULL,
	"prev_fresh_until" timestamp with time zone,
	"prev_known_until" timestamp with time zone,
	CONSTRAINT "site_freshness_entries_site_id_region_call_key_pk" PRIMARY KEY("site_id","region","call_key")
);
--> statement-breakpoint
CREATE TABLE "site_freshness_hours" (
	"site_id" integer NOT NULL,
	"region" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"visitor_check_calls" integer DEFAULT 0 NOT NULL,
	"visitor_check_hits" integer DEFAULT 0 NOT NULL,
	"known_delta" integer DEFAULT 0 NOT NULL,
	"fresh_delta" integer DEFAULT 0 NOT NULL,
	"carried" boolean DEFAULT false NOT NULL,
	CONSTRAINT "site_freshness_hours_site_id_region_hour_pk" PRIMARY KEY("site_id","region","hour")
);
--> statement-breakpoint
ALTER TABLE "site_freshness_entries" ADD CONSTRAINT "site_freshness_entries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_freshness_hours" ADD CONSTRAINT "site_freshness_hours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_freshness_entries_known_until_idx" ON "site_freshness_entries" USING btree ("known_until");--> statement-breakpoint
CREATE INDEX "site_freshness_hours_carried_idx" ON "site_freshness_hours" USING btree ("site_id") WHERE "site_freshness_hours"."carried";