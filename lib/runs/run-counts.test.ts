import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/drizzle/schema";
import { accounts, boosts, runs, sites } from "@/drizzle/schema";
import { type Database, type DatabaseHandle, openDatabase } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { listRuns } from "./service";

// GET /v1/runs's `total` is a sum of each boost's kept count (boost_run_counts), which the database's
// triggers keep: these tests hold it to a count of the runs themselves, whichever way runs come and go.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

let domains = 0;

// Written in SQL naming the columns they set: the test below writes them into a database migrated
// only up to 0029, which has none of the columns added since.
const idOf = (result: unknown) => Number(rowsOf<{ id: number }>(result)[0]!.id);

async function siteWithBoost(db: Database, accountId: number) {
  const siteId = idOf(await db.execute(sql`insert into sites (account_id, domain, validation_token, validated) values (${accountId}, ${`shop-${++domains}.test`}, 'token', true) returning id`));
  const boostId = idOf(await db.execute(sql`insert into boosts (site_id, name, source_type, regions) values (${siteId}, 'Nightly', 'sitemap', array['fr']) returning id`));
  return { siteId, boostId };
}

async function addRuns(db: Database, accountId: number, place: { siteId: number; boostId: number }, n: number, kind: "boost" | "warm" = "boost") {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      idOf(
        await db.execute(
          sql`insert into runs (kind, site_id, account_id, boost_id, regions, status) values (${kind}, ${place.siteId}, ${accountId}, ${kind === "boost" ? place.boostId : null}, array['fr'], 'done') returning id`,
        ),
      ),
    );
  }
  return ids;
}

const page = { limit: 2, offset: 0 };

describe("the total of an organization's runs", () => {
  it("follows runs added, deleted by retention, and gone with their boost or site, for every filter", async () => {
    const db = handle.db;
    const [account] = await db.insert(accounts).values({ name: "Tenant" }).returning();
    const [neighbour] = await db.insert(accounts).values({ name: "Neighbour" }).returning();
    const accountId = account!.id;
    const a = await siteWithBoost(db, accountId);
    const b = await siteWithBoost(db, accountId);
    const c = await siteWithBoost(db, accountId);
    const ofA = await addRuns(db, accountId, a, 3);
    await addRuns(db, accountId, b, 2);
    await addRuns(db, accountId, c, 1);
    await addRuns(db, accountId, a, 4, "warm");
    await addRuns(db, neighbour!.id, await siteWithBoost(db, neighbour!.id), 5);

    const total = async (filter: { boostId?: number }, siteIds: number[] | null = null, offset = 0) => (await listRuns({ db, accountId, siteIds }, filter, { ...page, offset })).total;
    expect(await total({})).toBe(6);
    expect(await total({ boostId: a.boostId })).toBe(3);
    expect(await total({}, [b.siteId, c.siteId])).toBe(3);
    expect(await total({}, null, 50)).toBe(6); // past the last page
    expect(await total({ boostId: b.boostId }, [a.siteId])).toBe(0);

    // Retention deletes many runs in one statement.
    await db.delete(runs).where(inArray(runs.id, ofA.slice(0, 2)));
    expect(await total({})).toBe(4);
    expect(await total({ boostId: a.boostId })).toBe(1);
    await db.delete(boosts).where(eq(boosts.id, b.boostId));
    await db.delete(sites).where(eq(sites.id, c.siteId));
    expect(await total({})).toBe(1);
    expect(await total({ boostId: b.boostId })).toBe(0);

    const counted = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${runs} where account_id = ${accountId} and kind = 'boost'`));
    expect(await total({})).toBe(counted[0]!.n);
    expect((await listRuns({ db, accountId: neighbour!.id }, {}, page)).total).toBe(5);
  });

  it("counts the runs kept before the counts existed, when the migration that brings them runs", async () => {
    // The migrations up to the one before the counts, a history of runs, then the rest.
    const migrations = path.join(process.cwd(), "drizzle", "migrations");
    const before = mkdtempSync(path.join(os.tmpdir(), "preheat-migrations-"));
    try {
      cpSync(migrations, before, { recursive: true });
      const journal = JSON.parse(readFileSync(path.join(before, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((entry) => entry.tag < "0030_boost_run_counts");
      writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify(journal));
      const pglite = await PGlite.create();
      const db = drizzle({ client: pglite, schema }) as unknown as Database;
      await migrate(db as never, { migrationsFolder: before });
      const account = { id: idOf(await db.execute(sql`insert into accounts (name) values ('Old tenant') returning id`)) };
      const one = await siteWithBoost(db, account.id);
      const two = await siteWithBoost(db, account.id);
      await addRuns(db, account.id, one, 7);
      await addRuns(db, account.id, two, 2);
      await addRuns(db, account.id, two, 3, "warm");

      await migrate(db as never, { migrationsFolder: migrations });
      expect((await listRuns({ db, accountId: account.id }, {}, page)).total).toBe(9);
      expect((await listRuns({ db, accountId: account.id }, { boostId: one.boostId }, page)).total).toBe(7);
      await addRuns(db, account.id, two, 1);
      expect((await listRuns({ db, accountId: account.id }, { boostId: two.boostId }, page)).total).toBe(3);
      await pglite.close();
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });
});
