import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { accounts } from "@/drizzle/schema";
import { type DatabaseHandle, openDatabase } from "./index";
import { preparedOnce } from "./prepared";

let first: DatabaseHandle;
let second: DatabaseHandle;
beforeAll(async () => {
  [first, second] = await Promise.all([openDatabase({ dataDir: "memory://" }), openDatabase({ dataDir: "memory://" })]);
});
afterAll(() => Promise.all([first.close(), second.close()]));

const accountName = preparedOnce((db) =>
  db
    .select({ name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare("prepared_test_account_name"),
);

// Built once per database, never run on another: a second database (a test's, or a tool's) reads its own rows.
it("runs a statement built once on the database it was built for, with each run's values", async () => {
  await first.db.insert(accounts).values([{ name: "First A" }, { name: "First B" }]);
  await second.db.insert(accounts).values({ name: "Second A" });
  expect(accountName(first.db)).toBe(accountName(first.db));
  expect(accountName(second.db)).not.toBe(accountName(first.db));
  expect(await accountName(first.db).execute({ id: 2 })).toEqual([{ name: "First B" }]);
  expect(await accountName(second.db).execute({ id: 1 })).toEqual([{ name: "Second A" }]);
  expect(await accountName(second.db).execute({ id: 2 })).toEqual([]);
});
