-- Each boost's number of runs, so that the total of an organization's runs (GET /v1/runs) is a sum of
-- its boosts' rows rather than a count of its whole history. The triggers keep it for every way a run
-- is added or deleted (a boost's run started, retention, a site or an organization deleted); they are
-- made before the rows are counted, in the same transaction, so that no run added meanwhile is missed.
CREATE TABLE "boost_run_counts" (
	"boost_id" integer PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "boost_run_counts" ADD CONSTRAINT "boost_run_counts_boost_id_boosts_id_fk" FOREIGN KEY ("boost_id") REFERENCES "public"."boosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "boost_run_counts_account_idx" ON "boost_run_counts" USING btree ("account_id","site_id");--> statement-breakpoint
-- Row by row, and only for a boost's run: a warm's run (the intake's hot path) does not call it.
CREATE FUNCTION boost_run_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO boost_run_counts (boost_id, account_id, site_id, runs) VALUES (NEW.boost_id, NEW.account_id, NEW.site_id, 1)
  ON CONFLICT (boost_id) DO UPDATE SET runs = boost_run_counts.runs + 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER boost_run_counts_add AFTER INSERT ON runs FOR EACH ROW WHEN (NEW.kind = 'boost' AND NEW.boost_id IS NOT NULL) EXECUTE FUNCTION boost_run_counts_add();--> statement-breakpoint
-- Once per deleting statement (retention deletes a thousand runs at a time).
CREATE FUNCTION boost_run_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE boost_run_counts c SET runs = c.runs - gone.runs
  FROM (SELECT boost_id, count(*)::integer AS runs FROM deleted_runs WHERE kind = 'boost' AND boost_id IS NOT NULL GROUP BY boost_id) gone
  WHERE c.boost_id = gone.boost_id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER boost_run_counts_remove AFTER DELETE ON runs REFERENCING OLD TABLE AS deleted_runs FOR EACH STATEMENT EXECUTE FUNCTION boost_run_counts_remove();--> statement-breakpoint
INSERT INTO boost_run_counts (boost_id, account_id, site_id, runs)
SELECT boost_id, min(account_id), min(site_id), count(*) FROM runs WHERE kind = 'boost' AND boost_id IS NOT NULL GROUP BY boost_id;
