CREATE TABLE "quota_notices" (
	"account_id" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"percent" integer NOT NULL,
	"reached_at" timestamp with time zone DEFAULT now() NOT NULL,
	"emailed_at" timestamp with time zone,
	CONSTRAINT "quota_notices_account_id_period_start_percent_pk" PRIMARY KEY("account_id","period_start","percent")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"monthly_calls" integer,
	"max_sites" integer,
	"max_site_concurrency" integer,
	"regions" text[],
	"run_results_max" integer,
	"verification" boolean DEFAULT true NOT NULL,
	"run_retention_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "plan_id" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "operator_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "results_max" integer;--> statement-breakpoint
ALTER TABLE "workers" ADD COLUMN "started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "workers" ADD COLUMN "calls_in_flight" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "quota_notices" ADD CONSTRAINT "quota_notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE restrict ON UPDATE no action;