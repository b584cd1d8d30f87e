CREATE TABLE "field_views" (
	"site_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"path" text NOT NULL,
	"device" text NOT NULL,
	"pop" text NOT NULL,
	"cache" text NOT NULL,
	"ttfb_bucket" smallint NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "field_views_site_id_hour_path_device_pop_cache_ttfb_bucket_pk" PRIMARY KEY("site_id","hour","path","device","pop","cache","ttfb_bucket")
);
--> statement-breakpoint
CREATE TABLE "traffic_sources" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "traffic_sources_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"site_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret" text,
	"read_every_hours" integer,
	"next_read_at" timestamp with time zone,
	"last_status" text DEFAULT 'never' NOT NULL,
	"last_read_at" timestamp with time zone,
	"last_message" text,
	"last_counts" jsonb,
	"latest_day" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "traffic_visits" (
	"source_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"path" text NOT NULL,
	"visits" integer NOT NULL,
	CONSTRAINT "traffic_visits_source_id_day_path_pk" PRIMARY KEY("source_id","day","path")
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "visit_share" jsonb;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "beacon_key" text DEFAULT substr(md5(random()::text || clock_timestamp()::text), 1, 20) NOT NULL;--> statement-breakpoint
ALTER TABLE "field_views" ADD CONSTRAINT "field_views_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traffic_sources" ADD CONSTRAINT "traffic_sources_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traffic_sources" ADD CONSTRAINT "traffic_sources_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traffic_visits" ADD CONSTRAINT "traffic_visits_source_id_traffic_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."traffic_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "traffic_sources_site_idx" ON "traffic_sources" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "traffic_sources_next_read_idx" ON "traffic_sources" USING btree ("next_read_at");--> statement-breakpoint
CREATE INDEX "traffic_visits_site_path_idx" ON "traffic_visits" USING btree ("site_id","path");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_beacon_key" ON "sites" USING btree ("beacon_key");