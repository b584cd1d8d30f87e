CREATE TABLE "run_results" (
	"run_id" integer NOT NULL,
	"batch_seq" integer NOT NULL,
	"call_index" integer NOT NULL,
	"region" text NOT NULL,
	"url" text NOT NULL,
	"user_agent" text NOT NULL,
	"language" text,
	"status_code" integer,
	"cache_status" text,
	"pop" text,
	"response_time_ms" integer NOT NULL,
	"reason" text NOT NULL,
	"verified_cache_status" text,
	CONSTRAINT "run_results_run_id_batch_seq_call_index_pk" PRIMARY KEY("run_id","batch_seq","call_index")
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "results_stored" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_results" ADD CONSTRAINT "run_results_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_results_run_reason_idx" ON "run_results" USING btree ("run_id","reason");