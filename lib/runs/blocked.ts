import { and, eq, sql } from "drizzle-orm";
import { runBatches, runResults, runs, sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { publicBaseUrl } from "@/lib/config/base-url";
import { ALLOW_LISTING_PATH, BLOCK_VENDORS, type BlockVendor, blockedSentence } from "@/lib/warm/blocked";
import { agentsOf } from "./calls";
import { inIds } from "@/lib/db/recordset";
import { warmCallsRecorded } from "./recorded-calls";

/**
 * The early stop: when at least `blocked` of a run's first `firstCalls` recorded calls (every region
 * together) were answered by bot protection, the run stops, failed. Knocking on would only collect
 * more challenge pages and spend the owner's quota. Each region's worker holds its calls past the
 * `firstCalls`-th until the run is judged, so a blocked run makes at most `firstCalls` calls per region
 * (a run of one region is judged by its worker as the answers come: `clearedOfBlocks`).
 */
export const BLOCKED_STOP = { firstCalls: 30, blocked: 20 } as const;

/**
 * Whether a run whose first calls answered `clear` times without a block can no longer be stopped by
 * the rule above, whatever its other first calls answer: a worker that sees all of a run's first calls
 * judges it by itself and holds nothing back.
 */
export function clearedOfBlocks(clear: number): boolean {
  return clear > BLOCKED_STOP.firstCalls - BLOCKED_STOP.blocked;
}

/** Outcomes as the warm loop records them, in call order: `1` blocked, `0` anything else. */
const blockedIn = (blocks: string): number => [...blocks].filter((c) => c === "1").length;

/** `blocked` of the run's first `calls` (at most `firstCalls`) were blocked; `judged` once all of the first ones are in. */
export type BlockedJudgement = { stop: boolean; judged: boolean; blocked: number; calls: number };

/**
 * The rule on one recording of a run: `calls` and `blocked` are the run's recorded totals after it
 * (under the run's row lock, so every worker's recordings are counted once and in turn), `blocks` the
 * outcomes it adds. Judged once the first `firstCalls` are in; stopped as soon as enough of them were blocked.
 */
export function judgeBlocked(after: { calls: number; blocked: number }, blocks: string): BlockedJudgement {
  const callsBefore = after.calls - blocks.length;
  if (callsBefore >= BLOCKED_STOP.firstCalls) return { stop: false, judged: true, blocked: 0, calls: BLOCKED_STOP.firstCalls };
  // Before this recording every call was among the first ones: only this recording's overflow is not.
  const first = blocks.slice(0, BLOCKED_STOP.firstCalls - callsBefore);
  const blocked = after.blocked - blockedIn(blocks) + blockedIn(first);
  const calls = callsBefore + first.length;
  const stop = blocked >= BLOCKED_STOP.blocked;
  return { stop, judged: stop || calls >= BLOCKED_STOP.firstCalls, blocked, calls };
}

/** The vendor that blocked most of the calls (the first in BLOCK_VENDORS on a tie). */
export function mainVendor(counts: Record<string, number>): BlockVendor | null {
  let best: BlockVendor | null = null;
  for (const vendor of BLOCK_VENDORS) if ((counts[vendor] ?? 0) > 0 && (best === null || counts[vendor]! > counts[best]!)) best = vendor;
  return best;
}

/** "let Preheat through (see https://…/docs/site-owners/bot-protection)": how every message about a block ends. */
export function letPreheatThrough(): string {
  return `let Preheat through (see ${publicBaseUrl()}${ALLOW_LISTING_PATH})`;
}

export function blockedStopMessage(vendor: BlockVendor, blocked: number, calls: number): string {
  return `${blockedSentence(vendor)}: ${letPreheatThrough()}. ${blocked} of the run's first ${calls} calls were answered with a challenge or a block page, so the run stopped.`;
}

/** A run's warming calls recorded so far, and the blocked ones in all and by vendor. */
export type BlockedFigures = { calls: number; blocked: number; byVendor: Record<string, number> };

/** Per run, the calls recorded so far and the blocked ones by vendor (warming batches only). */
export async function blockedSoFar(db: Database, runIds: readonly number[]): Promise<Map<number, BlockedFigures>> {
  const found = new Map<number, BlockedFigures>();
  if (!runIds.length) return found;
  for (const [runId, calls] of await warmCallsRecorded(db, runIds)) found.set(runId, { calls, blocked: 0, byVendor: {} });
  const vendors = await db.execute(
    sql`select b.run_id, c.key, sum(c.value::int) as n from ${runBatches} b, jsonb_each_text(b.blocked_by) c
        where ${inIds(sql`b.run_id`, runIds)} and b.purpose = 'warm' group by b.run_id, c.key`,
  );
  for (const row of rowsOf<{ run_id: number; key: string; n: string }>(vendors)) {
    const entry = found.get(Number(row.run_id));
    if (!entry) continue;
    entry.byVendor[row.key] = Number(row.n);
    entry.blocked += Number(row.n);
  }
  return found;
}

type BlockedVerdict = { blocked_by: BlockVendor; at: string; run_id: number };

/**
 * What the ended runs say of their sites' bot protection, per user-agent class (sites.blocked_verdicts):
 * a class at least half of whose calls were blocked gets the run's verdict (the vendor that blocked
 * most); a class the run called otherwise loses its verdict, since it got through this time. A run
 * plans every URL with each of its classes in turn, so each class has an even share of its calls;
 * its blocked calls are read from the run's results.
 */
export async function recordBlockedVerdicts(db: Database, runIds: readonly number[]): Promise<void> {
  if (!runIds.length) return;
  const ended = await db
    .select({ id: runs.id, siteId: runs.siteId, variations: runs.variations, verdicts: sites.blockedVerdicts })
    .from(runs)
    .innerJoin(sites, eq(sites.id, runs.siteId))
    .where(inIds(runs.id, [...runIds]));
  const soFar = await blockedSoFar(
    db,
    ended.map((run) => run.id),
  );
  // Only a run with blocked calls, or on a site with verdicts to take back, has anything to write.
  const relevant = ended.filter((run) => (soFar.get(run.id)?.blocked ?? 0) > 0 || Object.keys(run.verdicts ?? {}).length);
  if (!relevant.length) return;
  const perAgent = await db
    .select({ runId: runResults.runId, agent: runResults.userAgent, n: sql<string>`count(*)` })
    .from(runResults)
    .where(
      and(
        inIds(
          runResults.runId,
          relevant.map((run) => run.id),
        ),
        eq(runResults.reason, "blocked"),
      ),
    )
    .groupBy(runResults.runId, runResults.userAgent);
  const at = new Date().toISOString();
  for (const run of relevant) {
    const figures = soFar.get(run.id);
    if (!figures?.calls) continue;
    const agents = agentsOf(run);
    const share = figures.calls / agents.length;
    const vendor = mainVendor(figures.byVendor);
    const added: Record<string, BlockedVerdict> = {};
    const cleared: string[] = [];
    for (const agent of agents) {
      const blocked = Number(perAgent.find((row) => row.runId === run.id && row.agent === agent)?.n ?? 0);
      if (vendor && blocked > 0 && blocked * 2 >= share) added[agent] = { blocked_by: vendor, at, run_id: run.id };
      else cleared.push(agent);
    }
    await db
      .update(sites)
      .set({
        blockedVerdicts: sql`(coalesce(${sites.blockedVerdicts}, '{}'::jsonb) - ${sql`array[${sql.join(
          cleared.map((agent) => sql`${agent}`),
          sql`, `,
        )}]::text[]`}) || ${JSON.stringify(added)}::jsonb`,
      })
      .where(eq(sites.id, run.siteId));
  }
}
