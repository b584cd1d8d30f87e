import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBatches, runs } from "@/drizzle/schema";
import { findOrCreateUser } from "@/lib/accounts/users";
import { type DatabaseHandle, openDatabase } from "@/lib/db";
import { createSite } from "@/lib/sites/service";
import { summariseRuns } from "./summary";

let handle: DatabaseHandle;
let accountId: number;
let siteId: number;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  accountId = (await findOrCreateUser(handle.db, "summary@example.com")).user.accountId;
  siteId = (await createSite({ db: handle.db, accountId }, { domain: "summary.test" })).id;
});
afterAll(() => handle.close());

const call = { url: "https://summary.test/", user_agent: "desktop", language: null };

async function runWith(batches: Partial<typeof runBatches.$inferInsert>[]): Promise<number> {
  const [run] = await handle.db
    .insert(runs)
    .values({ kind: "warm", siteId, accountId, status: "done", sourceUrls: [call.url], regions: ["fr"] })
    .returning({ id: runs.id });
  await handle.db.insert(runBatches).values(batches.map((batch, seq) => ({ runId: run!.id, seq, region: "fr", calls: [call], ...batch })));
  return run!.id;
}

describe("summariseRuns", () => {
  it("sums each run's maps over its own warming batches, several runs in one read", async () => {
    const first = await runWith([
      { totalCalls: 3, notCached: { miss: 1, cookie: 1 }, pops: { CDG: 2 }, blockedBy: { cloudflare: 1 }, answerHeaders: { answers: 3, "vary:user-agent": 3 } },
      { totalCalls: 2, notCached: { miss: 2 }, pops: { CDG: 1, FRA: 1 }, answerHeaders: { answers: 2 } },
      // A verification batch is counted apart, never in the run's own maps.
      { purpose: "verify", totalCalls: 1, notCached: { miss: 5 }, pops: { LHR: 5 } },
    ]);
    const second = await runWith([{ totalCalls: 1, pops: { AMS: 1 } }]);
    const summaries = await summariseRuns(handle.db, [first, second]);
    expect(summaries.get(first)).toMatchObject({
      total_calls: 5,
      not_cached: { miss: 3, cookie: 1 },
      cache_misses: 3,
      pops: { CDG: 3, FRA: 1 },
      blocked_by: { cloudflare: 1 },
    });
    expect(summaries.get(second)).toMatchObject({ total_calls: 1, not_cached: {}, pops: { AMS: 1 }, blocked_by: {} });
  });
});
