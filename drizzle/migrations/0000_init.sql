CREATE TABLE "accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"monthly_call_quota" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"created_by_user_id" integer,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "boost_sitemaps" (
	"boost_id" integer NOT NULL,
	"sitemap_id" integer NOT NULL,
	CONSTRAINT "boost_sitemaps_boost_id_sitemap_id_pk" PRIMARY KEY("boost_id","sitemap_id")
);
--> statement-breakpoint
CREATE TABLE "boosts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "boosts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"source_type" text NOT NULL,
	"regions" text[] NOT NULL,
	"source_url" text,
	"url_root" text DEFAULT '/' NOT NULL,
	"exclude_ext" text[],
	"variations" jsonb,
	"content_types" text[],
	"ignore_errors" boolean DEFAULT false NOT NULL,
	"report_email_enabled" boolean DEFAULT true NOT NULL,
	"schedule" text,
	"next_run_at" timestamp with time zone,
	"call_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "run_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"run_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"region" text NOT NULL,
	"calls" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"total_calls" integer DEFAULT 0 NOT NULL,
	"successful_calls" integer DEFAULT 0 NOT NULL,
	"failed_calls" integer DEFAULT 0 NOT NULL,
	"cache_hits" integer DEFAULT 0 NOT NULL,
	"response_time_ms_total" bigint DEFAULT 0 NOT NULL,
	"pops" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_error" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"site_id" integer NOT NULL,
	"boost_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_message" text,
	"source_urls" text[],
	"regions" text[] NOT NULL,
	"variations" jsonb,
	"planned_calls" integer DEFAULT 0 NOT NULL,
	"failure_samples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sitemap_urls" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sitemap_urls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sitemap_id" integer NOT NULL,
	"url" text NOT NULL,
	"lastmod" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sitemaps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sitemaps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"site_id" integer NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"status_message" text,
	"url_count" integer DEFAULT 0 NOT NULL,
	"last_processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"domain" text NOT NULL,
	"validation_token" text NOT NULL,
	"validated" boolean DEFAULT false NOT NULL,
	"validated_at" timestamp with time zone,
	"validation_method" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boost_sitemaps" ADD CONSTRAINT "boost_sitemaps_boost_id_boosts_id_fk" FOREIGN KEY ("boost_id") REFERENCES "public"."boosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boost_sitemaps" ADD CONSTRAINT "boost_sitemaps_sitemap_id_sitemaps_id_fk" FOREIGN KEY ("sitemap_id") REFERENCES "public"."sitemaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "boosts" ADD CONSTRAINT "boosts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_batches" ADD CONSTRAINT "run_batches_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_boost_id_boosts_id_fk" FOREIGN KEY ("boost_id") REFERENCES "public"."boosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sitemap_urls" ADD CONSTRAINT "sitemap_urls_sitemap_id_sitemaps_id_fk" FOREIGN KEY ("sitemap_id") REFERENCES "public"."sitemaps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sitemaps" ADD CONSTRAINT "sitemaps_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "boosts_site_idx" ON "boosts" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "boosts_next_run_idx" ON "boosts" USING btree ("next_run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "run_batches_run_seq_key" ON "run_batches" USING btree ("run_id","seq");--> statement-breakpoint
CREATE INDEX "runs_site_idx" ON "runs" USING btree ("site_id","kind","id");--> statement-breakpoint
CREATE INDEX "runs_boost_idx" ON "runs" USING btree ("boost_id","id");--> statement-breakpoint
CREATE INDEX "runs_status_idx" ON "runs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_active_per_boost" ON "runs" USING btree ("boost_id") WHERE "runs"."status" in ('pending', 'running') and "runs"."kind" = 'boost';--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_active_warm_per_site" ON "runs" USING btree ("site_id") WHERE "runs"."status" in ('pending', 'running') and "runs"."kind" = 'warm';--> statement-breakpoint
CREATE UNIQUE INDEX "sitemap_urls_sitemap_url_key" ON "sitemap_urls" USING btree ("sitemap_id","url");--> statement-breakpoint
CREATE INDEX "sitemap_urls_sitemap_idx" ON "sitemap_urls" USING btree ("sitemap_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sitemaps_site_url_key" ON "sitemaps" USING btree ("site_id","url");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_account_domain_key" ON "sites" USING btree ("account_id","domain");