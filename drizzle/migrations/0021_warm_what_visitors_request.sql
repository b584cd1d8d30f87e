CREATE TABLE "bot_signing_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bot_signing_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key_id" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_key_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "bot_signing_keys_key_id_unique" UNIQUE("key_id")
);
--> statement-breakpoint
ALTER TABLE "boosts" ADD COLUMN "verify_visitors" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "boosts" ADD COLUMN "request_profile" jsonb;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "variant_figures" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "run_batches" ADD COLUMN "blocked_by" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "run_results" ADD COLUMN "cookie_set" text;--> statement-breakpoint
ALTER TABLE "run_results" ADD COLUMN "encoding" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "verify_visitors" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "request_profile" jsonb;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "verification_secret" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "blocked_verdicts" jsonb;