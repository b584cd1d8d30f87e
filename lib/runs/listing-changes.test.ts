import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, boosts, runs, sites } from "@/drizzle/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { keepsListings } from "./listing-changes";
import { listRuns } from "./service";
import { emptySummary } from "./summary";

// On the embedded database a page of GET /v1/runs is kept until the organization's boost runs change:
// whatever writes the change (here plain statements, as retention, the worker or a deletion would),
// the next page shows it.

let handle: DatabaseHandle;
let pageReads = 0;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  const pglite = handle.pglite!;
  const query = pglite.query.bind(pglite);
  pglite.query = ((text: string, ...rest: unknown[]) => {
    if (text.includes('from "runs" where ("runs"."account_id"')) pageReads++;
    return (query as (...args: unknown[]) => unknown)(text, ...rest);
  }) as typeof pglite.query;
});
afterAll(() => handle.close());

async function organization(name: string) {
  const db = handle.db;
  const [account] = await db.insert(accounts).values({ name }).returning();
  const [site] = await db
    .insert(sites)
    .values({ accountId: account!.id, domain: `${name}.test`, validationToken: "t", validated: true })
    .returning();
  const [boost] = await db
    .insert(boosts)
    .values({ siteId: site!.id, name: "Nightly", sourceType: "sitemap", regions: ["fr"] })
    .returning();
  const addRun = async (status = "done") =>
    (
      await db
        .insert(runs)
        .values({
          kind: "boost",
          siteId: site!.id,
          accountId: account!.id,
          boostId: boost!.id,
          regions: ["fr"],
          status,
          finishedAt: status === "done" ? new Date() : null,
          summary: status === "done" ? emptySummary() : null,
        })
        .returning()
    )[0]!;
  const shown = async (page = { limit: 20, offset: 0 }, boostId?: number) => {
    const { data, total } = await listRuns({ db, accountId: account!.id }, { boostId }, page);
    return { rows: data.map((r) => [r.id, r.status]), total };
  };
  return { accountId: account!.id, siteId: site!.id, boostId: boost!.id, addRun, shown };
}

describe("a kept page of runs", () => {
  it("is kept while nothing changes, and shows every change however it was written", async () => {
    const db = handle.db;
    expect(await keepsListings(db)).toBe(true);
    const tenant = await organization("kept-pages");
    const other = await organization("other-tenant");
    const first = await tenant.addRun();
    const second = await tenant.addRun("running");

    expect(await tenant.shown()).toEqual({
      rows: [
        [second.id, "running"],
        [first.id, "done"],
      ],
      total: 2,
    });
    const reads = pageReads;
    expect(await tenant.shown()).toEqual({
      rows: [
        [second.id, "running"],
        [first.id, "done"],
      ],
      total: 2,
    });
    expect(pageReads).toBe(reads); // served as kept

    await other.addRun(); // another organization's change leaves this one's pages kept
    await tenant.shown();
    expect(pageReads).toBe(reads);

    const third = await tenant.addRun("pending");
    expect(await tenant.shown()).toEqual({
      rows: [
        [third.id, "pending"],
        [second.id, "running"],
        [first.id, "done"],
      ],
      total: 3,
    });

    await db.update(runs).set({ status: "done", finishedAt: new Date(), summary: emptySummary() }).where(eq(runs.id, second.id));
    expect((await tenant.shown()).rows).toEqual([
      [third.id, "pending"],
      [second.id, "done"],
      [first.id, "done"],
    ]);

    await db.transaction(async (tx) => {
      await tx.update(runs).set({ status: "running", startedAt: new Date() }).where(eq(runs.id, third.id));
    });
    expect((await tenant.shown()).rows[0]).toEqual([third.id, "running"]);

    // Later pages and one boost's pages too.
    expect(await tenant.shown({ limit: 1, offset: 1 })).toEqual({ rows: [[second.id, "done"]], total: 3 });
    expect((await tenant.shown({ limit: 20, offset: 0 }, tenant.boostId)).total).toBe(3);
    await db.delete(runs).where(inArray(runs.id, [first.id, second.id]));
    expect(await tenant.shown()).toEqual({ rows: [[third.id, "running"]], total: 1 });
    expect(await tenant.shown({ limit: 1, offset: 1 })).toEqual({ rows: [], total: 1 });
    expect((await tenant.shown({ limit: 20, offset: 0 }, tenant.boostId)).total).toBe(1);

    // A site deleted takes its runs with it.
    await db.delete(sites).where(eq(sites.id, tenant.siteId));
    expect(await tenant.shown()).toEqual({ rows: [], total: 0 });
  });
});
