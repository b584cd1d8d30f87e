import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "./index";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

const query = async <T>(text: string) => (await handle.pglite!.query<T>(text)).rows;
const pageOf = async (table: string, id: number) => (await query<{ page: string }>(`select (ctid::text::point)[0]::text as page from ${table} where id = ${id}`))[0]!.page;

// A heap-only update stays on its row's page and writes no index entry: without room kept on each page,
// every reservation and recording of a batch would move its row and add to both of its indexes, and an
// embedded database, which vacuums a table only to freeze it (embedded-maintenance.ts), would keep the old
// versions for months.
it("keeps a batch's and a run's counter updates on their page when the table is full of rows", async () => {
  await query(`insert into accounts (name) values ('Tenant')`);
  await query(`insert into sites (account_id, domain, validation_token) values (1, 'shop.test', 'token')`);
  await query(`insert into runs (kind, site_id, account_id, regions) select 'boost', 1, 1, '{fr}' from generate_series(1, 300)`);
  await query(`insert into run_batches (run_id, seq, region, calls) select r, 0, 'fr', '[{"url":"https://shop.test/p","user_agent":"mobile","language":null}]' from generate_series(1, 300) r`);
  const pages = { batch: await pageOf("run_batches", 1), run: await pageOf("runs", 1) };
  for (let update = 1; update <= 5; update++) {
    await query(`update run_batches set dispatched_calls = ${update}, total_calls = ${update} where id = 1`);
    await query(`update runs set recent_outcomes = recent_outcomes || '0', planned_calls = ${update} where id = 1`);
  }
  expect({ batch: await pageOf("run_batches", 1), run: await pageOf("runs", 1) }).toEqual(pages);
});
