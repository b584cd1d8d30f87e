CREATE TABLE "change_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "change_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"receiver_id" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"event" text,
	"event_id" text,
	"urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payload" jsonb,
	"run_id" integer
);
--> statement-breakpoint
CREATE TABLE "change_receivers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "change_receivers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"site_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"public_id" text NOT NULL,
	"secret" text NOT NULL,
	"url_templates" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "change_deliveries" ADD CONSTRAINT "change_deliveries_receiver_id_change_receivers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."change_receivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_deliveries" ADD CONSTRAINT "change_deliveries_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_receivers" ADD CONSTRAINT "change_receivers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_receivers" ADD CONSTRAINT "change_receivers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_deliveries_receiver_idx" ON "change_deliveries" USING btree ("receiver_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "change_deliveries_event_key" ON "change_deliveries" USING btree ("receiver_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "change_receivers_public_id_key" ON "change_receivers" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "change_receivers_site_idx" ON "change_receivers" USING btree ("site_id");