-- A NOTIFY on preheat_runs_listing, with the organization's id, whenever what a page of its boost runs reads
-- (GET /v1/runs: which runs, their status and end time, the total) may have changed: a boost's run added,
-- runs deleted, a boost run's status, end time, boost or organization changed. The embedded database's server process
-- keeps its pages' reads while nothing changed (lib/runs/listing-changes.ts). Delivered at commit, in the
-- answer to the committing statement; with no listener (a PostgreSQL server today) a notice costs a queue entry.
CREATE OR REPLACE FUNCTION boost_run_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO boost_run_counts (boost_id, account_id, site_id, runs) VALUES (NEW.boost_id, NEW.account_id, NEW.site_id, 1)
  ON CONFLICT (boost_id) DO UPDATE SET runs = boost_run_counts.runs + 1;
  PERFORM pg_notify('preheat_runs_listing', NEW.account_id::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION boost_run_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE boost_run_counts c SET runs = c.runs - gone.runs
  FROM (SELECT boost_id, count(*)::integer AS runs FROM deleted_runs WHERE kind = 'boost' AND boost_id IS NOT NULL GROUP BY boost_id) gone
  WHERE c.boost_id = gone.boost_id;
  PERFORM pg_notify('preheat_runs_listing', gone.account_id::text) FROM (SELECT DISTINCT account_id FROM deleted_runs WHERE kind = 'boost') gone;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION runs_listing_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('preheat_runs_listing', OLD.account_id::text);
  IF NEW.account_id IS DISTINCT FROM OLD.account_id THEN
    PERFORM pg_notify('preheat_runs_listing', NEW.account_id::text);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Only an UPDATE that sets one of these columns calls it (a run's progress does not), and only for a boost's run.
CREATE TRIGGER runs_listing_changed AFTER UPDATE OF status, finished_at, boost_id, account_id, kind ON runs FOR EACH ROW
WHEN ((OLD.kind = 'boost' OR NEW.kind = 'boost') AND (OLD.status, OLD.finished_at, OLD.boost_id, OLD.account_id, OLD.kind) IS DISTINCT FROM (NEW.status, NEW.finished_at, NEW.boost_id, NEW.account_id, NEW.kind))
EXECUTE FUNCTION runs_listing_changed();
