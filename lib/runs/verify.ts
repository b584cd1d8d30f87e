import { and, asc, eq } from "drizzle-orm";
import { runResults, runs } from "@/drizzle/schema";
import type { PlannedCall } from "@/lib/core/calls";
import type { Database } from "@/lib/db";
import { planCheckBatches } from "./check-batches";
import { BATCH_SIZE } from "./plan";

/**
 * For each run asking for `verify` whose calls are all made and not verified yet: its cacheable
 * misses (the `miss` rows of run_results, in call order) asked once more, same URL, variant and
 * region, as verification batches (lib/runs/check-batches.ts). The engine sends them within the
 * site's limits like any call. Answers the runs that now have a verification to wait for (the others may end).
 */
export function planVerifications(db: Database, runIds: readonly number[]): Promise<Set<number>> {
  return planCheckBatches(db, runIds, { purpose: "verify", wants: eq(runs.verify, true), batchesOf: missesAskedAgain });
}

async function missesAskedAgain(tx: Database, run: { id: number }): Promise<Map<string, PlannedCall[][]>> {
  const misses = await tx
    .select({
      seq: runResults.batchSeq,
      index: runResults.callIndex,
      region: runResults.region,
      url: runResults.url,
      userAgent: runResults.userAgent,
      language: runResults.language,
      cookieSet: runResults.cookieSet,
      encoding: runResults.encoding,
    })
    .from(runResults)
    .where(and(eq(runResults.runId, run.id), eq(runResults.reason, "miss")))
    .orderBy(asc(runResults.batchSeq), asc(runResults.callIndex));
  const byRegion = new Map<string, PlannedCall[]>();
  for (const miss of misses) {
    const calls = byRegion.get(miss.region) ?? [];
    const call: PlannedCall = { url: miss.url, user_agent: miss.userAgent, language: miss.language, of: { seq: miss.seq, index: miss.index } };
    // The same variant as the miss: its cookie set and encoding are part of what the cache keyed it on.
    if (miss.cookieSet !== null) call.cookie_set = miss.cookieSet;
    if (miss.encoding !== null) call.encoding = miss.encoding;
    calls.push(call);
    byRegion.set(miss.region, calls);
  }
  const batches = new Map<string, PlannedCall[][]>();
  for (const [region, calls] of byRegion) {
    batches.set(
      region,
      Array.from({ length: Math.ceil(calls.length / BATCH_SIZE) }, (_, i) => calls.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE)),
    );
  }
  return batches;
}
