import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./index";
import { analyzeGrownTables } from "./embedded-statistics";

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
