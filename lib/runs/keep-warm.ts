import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { boosts, runs, sites } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { inIds } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import { claimDueEntries, type DueEntry, forgetEntries, postponeEntries } from "@/lib/freshness/entries";
import { sendJob } from "@/lib/jobs";
import { standingsOf } from "@/lib/plans/limits";
import { endKeepWarmRuns } from "./finish";
import { addToKeepWarmRuns, type KeepWarmAddition } from "./keep-warm-runs";
import { quotaPeriod, remainingQuotas } from "./quota";
/** Entries claimed per pass of the tick: a page of the index on due_at. */
const CLAIM_PAGE = 2_000;
/**
 * How far ahead of its due time a pass claims an entry, as a share of the slack: a quarter (0.5 s of
 * the default 2 s). A due time is a whole lifetime and half the slack after a call that a pass sent a
 * few ms after it began, so it falls just after a pass of the once-a-second tick: claimed only when
 * due, every re-warm waited for the next pass and went out a full second late (measured: 2.0 s after
 * expiry at p50 and p90, for an aim of 1 s). Claimed a quarter of the slack early, a re-warm aimed
 * half the slack after expiry still goes out after it.
 */
const CLAIM_AHEAD_OF_SLACK = 0.25;
/** A boost whose keep-warm run is ending (its window passed, its batches warming) has its due entries claimed again this much later. */
const HOLD_MS = 1_000;
/** A boost that cannot warm now (paused, keep-warm off, its site not validated, its organization suspended) is looked at again this much later. */
const RECHECK_LATER_MS = 3600_000;

/** Keep-warm calls each boost made this calendar month (UTC): its keep-warm runs' planned calls. */
async function keepWarmCallsThisMonthOf(db: Database, boostIds: readonly number[], now: Date): Promise<Map<number, number>> {
  if (!boostIds.length) return new Map();
  const rows = rowsOf<{ boost_id: number; calls: number | string }>(
    (await db.execute(sql`
      select boost_id, coalesce(sum(planned_calls), 0) as calls from ${runs}
      where ${inIds(runs.boostId, boostIds)} and trigger = 'keep_warm' and created_at > ${quotaPeriod(now).start.toISOString()}::timestamptz
      group by boost_id`)) as unknown,
  );
  return new Map(rows.map((row) => [Number(row.boost_id), Number(row.calls)]));
}

export async function keepWarmCallsThisMonth(db: Database, boostId: number, now: Date): Promise<number> {
  return (await keepWarmCallsThisMonthOf(db, [boostId], now)).get(boostId) ?? 0;
}

/** A page of claimed entries, by boost, in the order they were claimed (the earliest due first). */
function byBoost(due: readonly DueEntry[]): Map<number, DueEntry[]> {
  const grouped = new Map<number, DueEntry[]>();
  for (const entry of due) {
    const entries = grouped.get(entry.boostId);
    if (entries) entries.push(entry);
    else grouped.set(entry.boostId, [entry]);
  }
  return grouped;
}

/**
 * What a page of claimed entries comes to: per boost, the entries warmed now and those that wait.
 * A boost waits whole when it cannot warm now: paused (by hand, or by its errors), its site's
 * ownership not proven, or its organization suspended. Otherwise its month's budget and the
 * organization's quota (shared by its boosts on the page, spent in the order they come) leave room
 * for its entries highest priority first (the boost's URL order); the rest wait. The plan's limits
 * hold as for any run (the regions a boost may warm are checked when it is saved).
 */
async function sortOut(db: Database, page: Map<number, DueEntry[]>, now: Date) {
  const rows = await db
    .select({ boost: boosts, validated: sites.validated, runOpenUntil: runs.openUntil })
    .from(boosts)
    .innerJoin(sites, eq(sites.id, boosts.siteId))
    .leftJoin(runs, and(eq(runs.boostId, boosts.id), eq(runs.trigger, "keep_warm"), eq(runs.status, "running")))
    .where(inIds(boosts.id, [...page.keys()]));
  const found = new Map(rows.map((row) => [row.boost.id, row]));
  const accountIds = [...new Set([...page.values()].map((entries) => entries[0]!.accountId))];
  const budgeted = rows.filter((row) => row.boost.monthlyCallBudget !== null).map((row) => row.boost.id);
  const [standings, room, spent] = await Promise.all([standingsOf(db, accountIds), remainingQuotas(db, accountIds, now), keepWarmCallsThisMonthOf(db, budgeted, now)]);
  const turnedOff: number[] = [];
  const wait: DueEntry[] = [];
  const hold: DueEntry[] = [];
  const warm: KeepWarmAddition[] = [];
  for (const [boostId, entries] of page) {
    const row = found.get(boostId);
    const accountId = entries[0]!.accountId;
    const standing = standings.get(accountId);
    // Keep-warm turned off since: its entries go, rather than coming back every hour.
    if (row && !row.boost.keepWarm) turnedOff.push(boostId);
    else if (!row || !standing || row.boost.status === "paused" || !row.validated || standing.suspension) wait.push(...entries);
    // Its run's window has passed and its last batches are still warming: the next run opens once the tick has ended it.
    else if (row.runOpenUntil && row.runOpenUntil.getTime() <= now.getTime()) hold.push(...entries);
    else {
      const budget = row.boost.monthlyCallBudget === null ? Number.POSITIVE_INFINITY : Math.max(0, row.boost.monthlyCallBudget - (spent.get(boostId) ?? 0));
      const fits = Math.min(room.get(accountId) ?? 0, budget);
      const byPriority = [...entries].sort((a, b) => a.priority - b.priority || a.dueAt.getTime() - b.dueAt.getTime());
      wait.push(...byPriority.slice(fits));
      if (fits > 0) warm.push({ boost: row.boost, accountId, plan: standing.plan, entries: byPriority.slice(0, fits) });
      room.set(accountId, Math.max(0, (room.get(accountId) ?? 0) - Math.min(fits, entries.length)));
    }
  }
  return { turnedOff, wait, hold, warm };
}

/**
 * One pass of the keep-warm tick (ADR 0010): claims every entry due by `now` (or a quarter of the slack
 * after it: CLAIM_AHEAD_OF_SLACK), page by page, and adds each boost's to its keep-warm run, a few
 * statements per page whatever the number of boosts on it; entries of a boost that cannot warm
 * now, or that its budget or quota leave out, wait. Answers the calls added.
 */
export async function warmDueEntries(db: Database, now = new Date()): Promise<number> {
  const floor = setting("PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS");
  const dueBy = new Date(now.getTime() + setting("PREHEAT_KEEP_WARM_SLACK_SECONDS") * 1000 * CLAIM_AHEAD_OF_SLACK);
  let added = 0;
  for (;;) {
    const due = await claimDueEntries(db, dueBy, CLAIM_PAGE, floor);
    if (!due.length) return added;
    const { turnedOff, wait, hold, warm } = await sortOut(db, byBoost(due), now);
    await forgetEntries(db, turnedOff);
    await postponeEntries(db, wait, new Date(now.getTime() + RECHECK_LATER_MS));
    await postponeEntries(db, hold, new Date(now.getTime() + HOLD_MS));
    const addedTo = await addToKeepWarmRuns(db, warm, now);
    added += warm.reduce((n, addition) => n + addition.entries.length, 0);
    await Promise.all(
      addedTo.flatMap(({ runId, siteId, opened, regions, origin }) => [
        ...regions.map((region) => sendJob("run.batch", { runId, siteId, region })),
        // The site's Crawl-delay (its robots.txt, once a day) paces the re-warms as it paces every run:
        // looked at when a window's run opens, by a job of its own, so that no site's robots.txt holds up the tick.
        ...(opened ? [sendJob("site.robots", { siteId, origin })] : []),
      ]),
    );
    if (due.length < CLAIM_PAGE) return added;
  }
}

/**
 * Ends the keep-warm runs whose window has passed and whose batches are all warmed; answers those
 * ended. Only the tick ends them, and it runs one pass at a time on both drivers: a run it adds a
 * re-warm to is never being ended at the same moment.
 */
export async function closeKeepWarmRuns(db: Database, now = new Date()): Promise<number[]> {
  const closing = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.trigger, "keep_warm"), eq(runs.status, "running"), isNotNull(runs.openUntil), lte(runs.openUntil, now)));
  if (!closing.length) return [];
  const ended = await endKeepWarmRuns(
    db,
    closing.map((run) => run.id),
  );
  await Promise.all(ended.map((runId) => sendJob("run.ended", { runId })));
  return ended;
}
