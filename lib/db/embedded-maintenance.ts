import type { PGlite } from "@electric-sql/pglite";

const CHECK_EVERY_MS = 60_000;

/**
 * PGlite runs no autovacuum, so nothing keeps the planner's statistics: a table it believes
 * empty gets nested-loop plans, and listing runs took 160 ms instead of 3 ms on a database of
 * 17,000 sites (docs/benchmarks.md, API capacity). PGlite keeps the server's activity counters, so
 * autovacuum's own rule applies, with its own settings: a table is analysed once the rows inserted,
 * updated or deleted since its last analysis pass autovacuum_analyze_threshold (50) plus
 * autovacuum_analyze_scale_factor (10 %) of its rows. (A rule on the table's page count did not hold:
 * the vacuum of the same pass sets the page count too, so a table vacuumed as it grew kept the
 * statistics of its first minutes.) The counters start from zero when the database is opened: a
 * table with rows and no statistics at all is analysed then too. Returns the tables analysed.
 */
export function analyzeChangedTables(pglite: PGlite): Promise<string[]> {
  return eachTable(
    pglite,
    "analyze",
    `s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
                             + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
     or (pg_relation_size(c.oid) > 0 and c.reltuples <> 0
         and not exists (select 1 from pg_statistic st where st.starelid = c.oid)
         and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attstattarget is distinct from 0))`,
    "s.n_mod_since_analyze desc",
  );
}

/** Runs `command` on each of the application's tables (not the catalogs) that `condition` picks, in `order`; returns them. */
async function eachTable(pglite: PGlite, command: "analyze" | "vacuum", condition: string, order: string): Promise<string[]> {
  const { rows } = await pglite.query<{ schema: string; name: string }>(
    `select s.schemaname as schema, s.relname as name
       from pg_stat_all_tables s join pg_class c on c.oid = s.relid
      where c.relkind = 'r' and s.schemaname not in ('pg_catalog', 'information_schema') and s.schemaname not like 'pg_toast%'
        and (${condition})
      order by ${order}`,
  );
  for (const table of rows) await pglite.exec(`${command} "${table.schema}"."${table.name}"`);
  return rows.map((t) => `${t.schema}.${t.name}`);
}

/**
 * Every write takes a transaction id, and PostgreSQL stops taking writes before its ids wrap around
 * (about 2 billion of them) unless the tables' rows were frozen by a VACUUM. A server's autovacuum
 * does that; PGlite has none, so an embedded database written 200 times a second would refuse every
 * write after about four months. The tables older than `olderThan` transactions (PostgreSQL's own
 * vacuum_freeze_table_age, 150 million, by default) are frozen: the first time the whole table is read,
 * afterwards only the pages written since. Returns the tables frozen.
 */
export async function freezeAgingTables(pglite: PGlite, olderThan?: number): Promise<string[]> {
  const { rows } = await pglite.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'm', 't')
        and age(c.relfrozenxid) > coalesce($1::int, current_setting('vacuum_freeze_table_age')::int)
      order by age(c.relfrozenxid) desc`,
    [olderThan ?? null],
  );
  for (const table of rows) await pglite.exec(`vacuum (freeze) "${table.schema}"."${table.name}"`);
  return rows.map((t) => `${t.schema}.${t.name}`);
}

/**
 * Without autovacuum, nothing reclaims the rows an update or a delete leaves dead (a page prunes its
 * own, its indexes keep pointing at them), and nothing marks pages all-visible, so an index-only
 * scan still reads every row it counts: counting an account's 200 runs read 355 pages, and listing
 * its runs took 0.29 ms against 0.20 ms once vacuumed (docs/benchmarks.md). PGlite keeps the
 * server's activity counters (pg_stat_all_tables), so autovacuum's own rule applies, with its own
 * settings: a table is vacuumed once its dead rows pass autovacuum_vacuum_threshold (50) plus
 * autovacuum_vacuum_scale_factor (20 %) of its rows, or its rows inserted since the last vacuum pass
 * autovacuum_vacuum_insert_threshold (1,000) plus autovacuum_vacuum_insert_scale_factor (20 %). A
 * vacuum reads only the pages written since the last one. The counters start from zero when the
 * database is opened: rows left dead before are counted again once an analysis estimates them.
 * Returns the tables vacuumed.
 */
export function vacuumChangedTables(pglite: PGlite): Promise<string[]> {
  return eachTable(
    pglite,
    "vacuum",
    `s.n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
                    + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0)
     or s.n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
                               + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * greatest(c.reltuples, 0)`,
    "s.n_dead_tup desc",
  );
}

/** What the embedded database needs in place of autovacuum: the changed tables vacuumed and analysed, the aging ones frozen. */
export async function maintain(pglite: PGlite): Promise<void> {
  await vacuumChangedTables(pglite);
  await analyzeChangedTables(pglite);
  await freezeAgingTables(pglite);
}

/** Maintains the embedded database now, then every minute until `stop()` (which waits for a pass under way). */
export async function maintainEmbedded(pglite: PGlite): Promise<{ stop: () => Promise<void> }> {
  await maintain(pglite);
  let pass: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pass = maintain(pglite).catch(() => {
      // A closed or busy database: the next pass tries again.
    });
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await pass;
    },
  };
}
