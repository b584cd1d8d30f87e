-- A run's results go with the run, as its foreign key's cascade did, for every way a run is deleted
-- (retention, its boost, its site or its organization deleted): one statement per deleting statement.
-- The foreign key itself goes in the next migration: checked for each row recorded, it was a third of
-- the cost of writing a run's results (docs/benchmarks.md). Rows are only ever written by the
-- recording, for runs it has locked.
CREATE FUNCTION run_results_follow_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM run_results WHERE run_id IN (SELECT id FROM deleted_runs);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER run_results_follow_runs AFTER DELETE ON runs REFERENCING OLD TABLE AS deleted_runs FOR EACH STATEMENT EXECUTE FUNCTION run_results_follow_runs();
