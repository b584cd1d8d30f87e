import { and, asc, eq, inArray, max } from "drizzle-orm";
import type { PlannedCall } from "@/lib/core/calls";
import { runBatches, runResults, runs } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { sendJob } from "@/lib/jobs";
import type { RegionCode } from "@/lib/core/regions";
import { BATCH_SIZE } from "./plan";

/** How long a verification waits after the run's calls (PREHEAT_VERIFY_DELAY_SECONDS, default 5): time for the cache to store what they fetched. */
export function verifyDelaySeconds(): number {
  return setting("PREHEAT_VERIFY_DELAY_SECONDS");
}

/**
 * For each run asking for `verify` whose calls are all made and not verified yet: its cacheable
 * misses (the `miss` rows of run_results, in call order) asked once more, same URL, variant and
 * region, as verification batches that wait PREHEAT_VERIFY_DELAY_SECONDS. Their jobs are queued
 * here; the engine sends them within the site's limits like any call. Answers the runs that now
 * have a verification to wait for (the others may end). Under the run's row lock, so two workers
 * finishing two regions at once plan it once.
 */
export async function planVerifications(db: Database, runIds: readonly number[]): Promise<Set<number>> {
  const verifying = new Set<number>();
  if (!runIds.length) return verifying;
  const jobs: { runId: number; siteId: number; region: RegionCode }[] = [];
  await db.transaction(async (tx) => {
    const wanting = await tx
      .select({ id: runs.id, siteId: runs.siteId })
      .from(runs)
      .where(and(inArray(runs.id, [...runIds]), eq(runs.verify, true), eq(runs.status, "running")))
      .orderBy(asc(runs.id))
      .for("update");
    if (!wanting.length) return;
    const ids = wanting.map((r) => r.id);
    const planned = await tx
      .selectDistinct({ runId: runBatches.runId })
      .from(runBatches)
      .where(and(inArray(runBatches.runId, ids), eq(runBatches.purpose, "verify")));
    const done = new Set(planned.map((p) => p.runId));
    const notBefore = new Date(Date.now() + verifyDelaySeconds() * 1000);
    for (const { id: runId, siteId } of wanting.filter((run) => !done.has(run.id))) {
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
        .where(and(eq(runResults.runId, runId), eq(runResults.reason, "miss")))
        .orderBy(asc(runResults.batchSeq), asc(runResults.callIndex));
      if (!misses.length) continue;
      const [last] = await tx
        .select({ seq: max(runBatches.seq) })
        .from(runBatches)
        .where(eq(runBatches.runId, runId));
      let seq = (last?.seq ?? 0) + 1;
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
      for (const [region, calls] of byRegion) {
        for (let i = 0; i < calls.length; i += BATCH_SIZE) {
          await tx.insert(runBatches).values({ runId, seq: seq++, region, calls: calls.slice(i, i + BATCH_SIZE), purpose: "verify", notBefore });
        }
        jobs.push({ runId, siteId, region: region as RegionCode });
      }
      verifying.add(runId);
    }
  });
  for (const job of jobs) await sendJob("run.batch", job);
  return verifying;
}
