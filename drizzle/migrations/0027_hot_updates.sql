-- Rows updated many times in their life keep room on their page, so that each update can stay on the
-- page and leave the indexes alone (a heap-only tuple): a batch's counters are written with every
-- reservation and recording, a run's with every recording. Measured in docs/benchmarks.md.
ALTER TABLE "run_batches" SET (fillfactor = 60);--> statement-breakpoint
ALTER TABLE "runs" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "account_usage" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "site_slots" SET (fillfactor = 50);
