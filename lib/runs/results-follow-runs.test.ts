import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, boosts, runResults, runs, sites } from "@/drizzle/schema";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { inIds } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";

// run_results has no foreign key to runs (it was a third of the cost of recording a run's calls):
// a trigger deletes a run's results with the run, whichever way the run goes.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
});
afterAll(() => handle.close());

let domains = 0;

/** An organization with a site, a boost and two runs of it, each with three recorded calls. */
async function organizationWithResults() {
  const db = handle.db;
  const [account] = await db.insert(accounts).values({ name: "Tenant" }).returning();
  const [site] = await db
    .insert(sites)
    .values({ accountId: account!.id, domain: `shop-${++domains}.test`, validationToken: "token" })
    .returning();
  const [boost] = await db
    .insert(boosts)
    .values({ siteId: site!.id, name: "Nightly", sourceType: "sitemap", regions: ["fr"] })
    .returning();
  const runIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    const [run] = await db
      .insert(runs)
      .values({ kind: "boost", siteId: site!.id, accountId: account!.id, boostId: boost!.id, regions: ["fr"], status: "done" })
      .returning();
    runIds.push(run!.id);
    await db
      .insert(runResults)
      .values([0, 1, 2].map((callIndex) => ({ runId: run!.id, batchSeq: 0, callIndex, region: "fr", url: `https://shop.test/${callIndex}`, userAgent: "mobile", responseTimeMs: 12 })));
  }
  return { accountId: account!.id, siteId: site!.id, boostId: boost!.id, runIds };
}

async function resultsOf(runIds: number[]): Promise<number> {
  const counted = await handle.db.execute(sql`select count(*)::int as n from ${runResults} where ${inIds(runResults.runId, runIds)}`);
  return Number(rowsOf<{ n: number }>(counted)[0]!.n);
}

describe("a run's results", () => {
  it("go with the run when the run is deleted, and the other runs keep theirs", async () => {
    const { runIds } = await organizationWithResults();
    await handle.db.delete(runs).where(eq(runs.id, runIds[0]!));
    expect(await resultsOf([runIds[0]!])).toBe(0);
    expect(await resultsOf([runIds[1]!])).toBe(3);
  });

  it("go with the runs of a boost, a site or an organization deleted", async () => {
    const ofBoost = await organizationWithResults();
    const ofSite = await organizationWithResults();
    const ofAccount = await organizationWithResults();
    await handle.db.delete(boosts).where(eq(boosts.id, ofBoost.boostId));
    await handle.db.delete(sites).where(eq(sites.id, ofSite.siteId));
    await handle.db.delete(accounts).where(eq(accounts.id, ofAccount.accountId));
    expect(await resultsOf([...ofBoost.runIds, ...ofSite.runIds, ...ofAccount.runIds])).toBe(0);
  });
});
