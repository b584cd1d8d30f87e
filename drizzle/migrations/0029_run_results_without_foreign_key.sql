ALTER TABLE "run_results" DROP CONSTRAINT "run_results_run_id_runs_id_fk";
