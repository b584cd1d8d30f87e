import { and, eq, sql } from "drizzle-orm";
import { type boosts, runBatches, runs } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { PlannedCall } from "@/lib/core/calls";
import { plural } from "@/lib/core/format";
import type { RegionCode } from "@/lib/core/regions";
import type { RunTrigger } from "@/lib/core/run-trigger";
import { type Database, isUniqueViolation } from "@/lib/db";
import { inIds, recordset } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import type { DueEntry } from "@/lib/freshness/entries";
import { type EffectivePlan, runResultsMaxOf } from "@/lib/plans/limits";
import { BATCH_SIZE } from "./plan";
import { addUsage } from "./quota";

type Boost = typeof boosts.$inferSelect;

/** A boost's due entries that a pass of the keep-warm tick warms now. */
export type KeepWarmAddition = { boost: Boost; accountId: number; plan: EffectivePlan; entries: DueEntry[] };

/** Where an addition went: its boost's keep-warm run, whether this pass opened it, and the regions it added to. */
export type AddedTo = { runId: number; siteId: number; opened: boolean; regions: RegionCode[]; origin: string };

/** The trigger of a boost's keep-warm runs: its window, in the words of the run page. */
function keepWarmTrigger(): RunTrigger {
  return { kind: "keep_warm", label: `one run per ${plural(setting("PREHEAT_KEEP_WARM_WINDOW_MINUTES"), "minute")}` };
}

/** Batch rows written by one statement: a page of a pass holds up to a few thousand. */
const ROWS_PER_INSERT = 500;

/**
 * The boosts' keep-warm runs, locked: the one each has open (one per boost, ADR 0010: the pass holds
 * the entries of a boost whose run's window has passed until the tick ends it), or a new one,
 * created running since its calls come from the entries, not from planning.
 */
async function runsOf(tx: Database, additions: readonly KeepWarmAddition[], now: Date): Promise<Map<number, { id: number; siteId: number; opened: boolean }>> {
  const boostIds = additions.map((addition) => addition.boost.id);
  const open = await tx
    .select({ id: runs.id, boostId: runs.boostId, siteId: runs.siteId })
    .from(runs)
    .where(and(inIds(runs.boostId, boostIds), eq(runs.trigger, "keep_warm"), eq(runs.status, "running")))
    .for("update");
  const found = new Map(open.map((run) => [run.boostId!, { id: run.id, siteId: run.siteId, opened: false }]));
  const missing = additions.filter((addition) => !found.has(addition.boost.id));
  if (!missing.length) return found;
  const trigger = keepWarmTrigger();
  const openUntil = new Date(now.getTime() + setting("PREHEAT_KEEP_WARM_WINDOW_MINUTES") * 60_000);
  const created = await tx
    .insert(runs)
    .values(
      missing.map(({ boost, accountId, plan }) => ({
        kind: "boost" as const,
        siteId: boost.siteId,
        accountId,
        boostId: boost.id,
        status: "running" as const,
        regions: boost.regions,
        variations: boost.variations,
        requestProfile: boost.requestProfile,
        resultsMax: runResultsMaxOf(plan),
        trigger: trigger.kind,
        triggerLabel: trigger.label,
        startedAt: now,
        openUntil,
        statusMessage: "Keep-warm: re-warms each page as its shared-cache lifetime ends.",
      })),
    )
    .returning({ id: runs.id, boostId: runs.boostId, siteId: runs.siteId });
  for (const run of created) found.set(run.boostId!, { id: run.id, siteId: run.siteId, opened: true });
  return found;
}

/**
 * Adds each boost's entries to its keep-warm run as batches, one region at a time, and counts them,
 * in one transaction for the whole page of a pass: a few statements whatever the number of boosts
 * (one transaction per boost cost 3.5 ms a due entry at 1,000,000 entries, docs/benchmarks.md).
 */
export async function addToKeepWarmRuns(db: Database, additions: readonly KeepWarmAddition[], now: Date): Promise<AddedTo[]> {
  if (!additions.length) return [];
  const attempt = () =>
    db.transaction(async (tx) => {
      const runOf = await runsOf(tx, additions, now);
      const runIds = [...runOf.values()].map((run) => run.id);
      const lastSeq = new Map(
        rowsOf<{ run_id: number; seq: number }>((await tx.execute(sql`select run_id, max(seq) as seq from ${runBatches} where ${inIds(runBatches.runId, runIds)} group by run_id`)) as unknown).map(
          (row) => [Number(row.run_id), Number(row.seq)],
        ),
      );
      const batches: (typeof runBatches.$inferInsert)[] = [];
      const added: AddedTo[] = [];
      const usage = new Map<number, number>();
      for (const { boost, accountId, entries } of additions) {
        const run = runOf.get(boost.id)!;
        let seq = (lastSeq.get(run.id) ?? -1) + 1;
        const byRegion = new Map<string, PlannedCall[]>();
        for (const entry of entries) byRegion.set(entry.region, [...(byRegion.get(entry.region) ?? []), entry.call]);
        for (const [region, calls] of byRegion) {
          for (let i = 0; i < calls.length; i += BATCH_SIZE) batches.push({ runId: run.id, seq: seq++, region, calls: calls.slice(i, i + BATCH_SIZE) });
        }
        usage.set(accountId, (usage.get(accountId) ?? 0) + entries.length);
        added.push({ runId: run.id, siteId: run.siteId, opened: run.opened, regions: [...byRegion.keys()] as RegionCode[], origin: new URL(entries[0]!.call.url).origin });
      }
      for (let i = 0; i < batches.length; i += ROWS_PER_INSERT) await tx.insert(runBatches).values(batches.slice(i, i + ROWS_PER_INSERT));
      const counts = additions.map(({ boost, entries }) => ({ id: runOf.get(boost.id)!.id, calls: entries.length }));
      await tx.execute(sql`
        update ${runs} as r set planned_calls = r.planned_calls + v.calls
        from ${recordset(JSON.stringify(counts), "id int, calls int")}
        where r.id = v.id`);
      for (const [accountId, calls] of usage) await addUsage(tx, accountId, now, calls);
      return added;
    });
  try {
    return await attempt();
  } catch (error) {
    // A boost's run opened elsewhere at the same moment (the tick runs one at a time, so only by hand): the index let it win, and this joins it.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}
