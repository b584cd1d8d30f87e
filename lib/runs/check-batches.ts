import { and, asc, eq, max, type SQL } from "drizzle-orm";
import { inIds } from "@/lib/db/recordset";
import { runBatches, runs } from "@/drizzle/schema";
import type { BatchPurpose, PlannedCall } from "@/lib/core/calls";
import type { RegionCode } from "@/lib/core/regions";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { sendJob } from "@/lib/jobs";

/** How long a check waits after the run's calls (PREHEAT_VERIFY_DELAY_SECONDS, default 5): time for the cache to store what they fetched. */
function verifyDelaySeconds(): number {
  return setting("PREHEAT_VERIFY_DELAY_SECONDS");
}

/** A run as a check plans its batches from it. */
export type CheckedRun = Pick<typeof runs.$inferSelect, "id" | "siteId" | "regions" | "variations">;

/**
 * Plans a check that follows a run's calls (a verification, a visitor check) once per run: for each
 * run of `runIds` still running and asking for it (`wants`) that has no batch of `purpose` yet, the
 * batches `batchesOf` gives per region, after the run's last batch, waiting PREHEAT_VERIFY_DELAY_SECONDS;
 * a region's job is queued when it has one. Under the runs' row locks, so two workers finishing two
 * regions at once plan it once. Answers the runs that now have a check to wait for.
 */
export async function planCheckBatches(
  db: Database,
  runIds: readonly number[],
  check: { purpose: Exclude<BatchPurpose, "warm">; wants: SQL; batchesOf: (tx: Database, run: CheckedRun) => Promise<Map<string, PlannedCall[][]>> },
): Promise<Set<number>> {
  const checking = new Set<number>();
  if (!runIds.length) return checking;
  const jobs: { runId: number; siteId: number; region: RegionCode }[] = [];
  await db.transaction(async (tx) => {
    const wanting = await tx
      .select({ id: runs.id, siteId: runs.siteId, regions: runs.regions, variations: runs.variations })
      .from(runs)
      .where(and(inIds(runs.id, [...runIds]), check.wants, eq(runs.status, "running")))
      .orderBy(asc(runs.id))
      .for("update");
    if (!wanting.length) return;
    const planned = await tx
      .selectDistinct({ runId: runBatches.runId })
      .from(runBatches)
      .where(
        and(
          inIds(
            runBatches.runId,
            wanting.map((run) => run.id),
          ),
          eq(runBatches.purpose, check.purpose),
        ),
      );
    const done = new Set(planned.map((p) => p.runId));
    const notBefore = new Date(Date.now() + verifyDelaySeconds() * 1000);
    for (const run of wanting.filter((r) => !done.has(r.id))) {
      const byRegion = await check.batchesOf(tx, run);
      if (![...byRegion.values()].some((batches) => batches.length)) continue;
      const [last] = await tx
        .select({ seq: max(runBatches.seq) })
        .from(runBatches)
        .where(eq(runBatches.runId, run.id));
      let seq = (last?.seq ?? 0) + 1;
      for (const [region, batches] of byRegion) {
        if (!batches.length) continue;
        for (const calls of batches) await tx.insert(runBatches).values({ runId: run.id, seq: seq++, region, calls, purpose: check.purpose, notBefore });
        jobs.push({ runId: run.id, siteId: run.siteId, region: region as RegionCode });
      }
      checking.add(run.id);
    }
  });
  for (const job of jobs) await sendJob("run.batch", job);
  return checking;
}
