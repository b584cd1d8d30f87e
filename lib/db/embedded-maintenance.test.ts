import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./index";
import { analyzeGrownTables, freezeAgingTables } from "./embedded-maintenance";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

const estimatedRows = async (table: string) => Number((await handle.pglite!.query<{ n: number }>(`select reltuples::int as n from pg_class where relname = '${table}'`)).rows[0]!.n);

it("gives the planner the size of a table that grew, and leaves the others alone", async () => {
  await handle.db.execute(sql`insert into accounts (name) select 'Tenant ' || i from generate_series(1, 3000) as i`);
  expect(await analyzeGrownTables(handle.pglite!)).toEqual(["public.accounts"]);
  expect(await estimatedRows("accounts")).toBe(3000);
  expect(await analyzeGrownTables(handle.pglite!)).toEqual([]);
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
