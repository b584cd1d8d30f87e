ALTER TABLE "sign_up_requests" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "ownership_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "ownership_lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "ownership_problem" text;