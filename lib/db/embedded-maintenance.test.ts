import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./index";
import { analyzeChangedTables, freezeAgingTables, maintain, vacuumChangedTables } from "./embedded-maintenance";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

const estimatedRows = async (table: string) => Number((await handle.pglite!.query<{ n: number }>(`select reltuples::int as n from pg_class where relname = '${table}'`)).rows[0]!.n);

/** The server's counters reach pg_stat_all_tables at most once a second, at a statement's end: this flush is forced. */
async function flushCounters() {
  await handle.pglite!.query("select pg_stat_force_next_flush()");
  await handle.pglite!.query("select 1");
}

it("gives the planner the size of a table that changed, and leaves the others alone", async () => {
  await handle.db.execute(sql`insert into accounts (name) select 'Tenant ' || i from generate_series(1, 3000) as i`);
  await flushCounters();
  expect(await analyzeChangedTables(handle.pglite!)).toContain("public.accounts");
  expect(await estimatedRows("accounts")).toBe(3000);
  await flushCounters();
  expect(await analyzeChangedTables(handle.pglite!)).toEqual([]);
  // Below autovacuum's threshold (50 rows and a tenth of the table's): left for later.
  await handle.db.execute(sql`update accounts set name = name || '.' where id in (select id from accounts order by id limit 200)`);
  await flushCounters();
  expect(await analyzeChangedTables(handle.pglite!)).not.toContain("public.accounts");
  await handle.db.execute(sql`update accounts set name = name || '.' where id in (select id from accounts order by id limit 200)`);
  await flushCounters();
  expect(await analyzeChangedTables(handle.pglite!)).toContain("public.accounts");
});

const ageOf = async (table: string) => Number((await handle.pglite!.query<{ age: number }>(`select age(relfrozenxid) as age from pg_class where relname = '${table}'`)).rows[0]!.age);

it("freezes the tables older than the limit, so that the database never reaches transaction-id wraparound, and leaves the younger ones", async () => {
  for (let i = 0; i < 60; i++) await handle.db.execute(sql`insert into plans (name, monthly_calls) values (${`Plan ${i}`}, 1000)`);
  const age = await ageOf("plans");
  expect(age).toBeGreaterThan(50);
  expect(await freezeAgingTables(handle.pglite!, age - 1)).toContain("public.plans");
  expect(await ageOf("plans")).toBeLessThan(5);
  // Every table is young now: none is read again.
  expect(await freezeAgingTables(handle.pglite!, 20)).toEqual([]);
});

const deadRows = async (table: string) => {
  await flushCounters();
  return Number((await handle.pglite!.query<{ n: number }>(`select n_dead_tup::int as n from pg_stat_all_tables where relname = '${table}'`)).rows[0]!.n);
};

it("reclaims the rows updates left dead once they pass autovacuum's threshold, as a server's autovacuum would, and leaves the other tables alone", async () => {
  // Past the insert threshold on their own (1,000 and a fifth of the table's 3,000 rows): the earlier
  // tests' inserts may already have been counted and then cleared by the freeze's vacuum.
  await handle.db.execute(sql`insert into accounts (name) select 'Vacuumed ' || i from generate_series(1, 2000) as i`);
  // Rows inserted count too (they are marked visible to all, for index-only scans).
  expect(await deadRows("accounts")).toBe(0);
  expect(await vacuumChangedTables(handle.pglite!)).toContain("public.accounts");
  // Below the threshold (50 rows and a fifth of the table's): left for later.
  await handle.db.execute(sql`update accounts set name = name || '.' where id in (select id from accounts order by id limit 20)`);
  expect(await deadRows("accounts")).toBe(20);
  expect(await vacuumChangedTables(handle.pglite!)).not.toContain("public.accounts");
  await handle.db.execute(sql`update accounts set name = name || '.'`);
  expect(await deadRows("accounts")).toBeGreaterThan(3000);
  expect(await vacuumChangedTables(handle.pglite!)).toContain("public.accounts");
  expect(await deadRows("accounts")).toBe(0);
  expect(await vacuumChangedTables(handle.pglite!)).toEqual([]);
});

const runsEstimated = async () => Number((await handle.pglite!.query<{ n: number }>(`select n_distinct::int as n from pg_stats where tablename = 'run_results' and attname = 'run_id'`)).rows[0]?.n);

const insertCalls = (firstRun: number, runCount: number, callsPerRun: number) =>
  handle.db.execute(sql`insert into run_results (run_id, batch_seq, call_index, region, url, user_agent, response_time_ms)
    select ${firstRun}::int + i / ${callsPerRun}::int, i % ${callsPerRun}::int, 0, 'eu', 'https://shop.test/p/' || i, 'Preheat', 200
      from generate_series(0, ${runCount * callsPerRun - 1}::int) as i`);

it("keeps the statistics of a table that is vacuumed as it grows, as the calls' rows are", async () => {
  await insertCalls(1, 2, 500);
  await flushCounters();
  await maintain(handle.pglite!);
  expect(await runsEstimated()).toBe(2);
  // Each pass vacuums the table first (its inserts pass the vacuum's threshold), then analyses it.
  for (let step = 0; step < 4; step++) {
    await insertCalls(3 + step * 50, 50, 100);
    await flushCounters();
    await maintain(handle.pglite!);
  }
  // 202 runs: estimated from a sample, within a tenth.
  expect(await runsEstimated()).toBeGreaterThan(180);
  await handle.db.execute(sql`delete from run_results`);
});

it("samples the tables with a row per call or per URL at a tenth of the default, so that analysing them stays short", async () => {
  const { rows } = await handle.pglite!.query<{ table: string; column: string; target: number | null }>(
    `select c.relname as table, a.attname as column, a.attstattarget as target
       from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relname in ('run_results', 'sitemap_urls', 'run_url_states', 'keep_warm_entries', 'site_freshness_entries') and a.attnum > 0 and not a.attisdropped`,
  );
  expect(rows.length).toBeGreaterThan(20);
  expect(rows.filter((row) => row.target !== 10)).toEqual([]);
});
