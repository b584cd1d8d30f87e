ALTER TABLE "boosts" ADD COLUMN "last_run_number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "last_warm_number" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A run's ordinal within its boost (issue 60: ids are global, so a boost's runs read #1 then #35), or
-- within its site's runs without a boost (warms, changes). Runs kept today are numbered in creation
-- order; those retention deleted are not counted, so a boost's oldest kept run is its number 1.
UPDATE runs r SET number = o.n
FROM (SELECT id, row_number() OVER (PARTITION BY boost_id IS NULL, coalesce(boost_id, site_id) ORDER BY id)::integer AS n FROM runs) o
WHERE r.id = o.id;--> statement-breakpoint
UPDATE boosts b SET last_run_number = m.n
FROM (SELECT boost_id, max(number) AS n FROM runs WHERE boost_id IS NOT NULL GROUP BY boost_id) m
WHERE b.id = m.boost_id;--> statement-breakpoint
UPDATE sites s SET last_warm_number = m.n
FROM (SELECT site_id, max(number) AS n FROM runs WHERE boost_id IS NULL GROUP BY site_id) m
WHERE s.id = m.site_id;--> statement-breakpoint
-- Every way a run is added (a boost's run, keep-warm's, a warm, changes, a bench's rows) takes its
-- number here, from a counter that only goes up: a run deleted by retention never gives its number
-- back. The counter's row stays locked until the inserting transaction ends, so two runs of one boost
-- created at once wait for each other rather than share a number.
CREATE FUNCTION runs_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.boost_id IS NOT NULL THEN
    UPDATE boosts SET last_run_number = last_run_number + 1 WHERE id = NEW.boost_id RETURNING last_run_number INTO NEW.number;
  ELSE
    UPDATE sites SET last_warm_number = last_warm_number + 1 WHERE id = NEW.site_id RETURNING last_warm_number INTO NEW.number;
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER runs_number BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION runs_number();
