CREATE TABLE "account_usage" (
	"account_id" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"planned_calls" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "account_usage_account_id_period_start_pk" PRIMARY KEY("account_id","period_start")
);
--> statement-breakpoint
ALTER TABLE "account_usage" ADD CONSTRAINT "account_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "account_usage" ("account_id", "period_start", "planned_calls")
SELECT "account_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum("planned_calls")
FROM "runs" GROUP BY 1, 2;
