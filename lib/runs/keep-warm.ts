import { and, eq, gt, inArray, isNotNull, lte, max, sql } from "drizzle-orm";
import { boosts, runBatches, runs, sites } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { PlannedCall } from "@/lib/core/calls";
import { plural } from "@/lib/core/format";
import type { RegionCode } from "@/lib/core/regions";
import type { RunTrigger } from "@/lib/core/run-trigger";
import { type Database, isUniqueViolation } from "@/lib/db";
import { claimDueEntries, type DueEntry, forgetEntries, postponeEntries } from "@/lib/freshness/entries";
import { sendJob } from "@/lib/jobs";
import { refreshCrawlDelay } from "@/lib/sites/crawl-delay";
import { runResultsMaxOf, standingOf } from "@/lib/plans/limits";
import { finishRun } from "./finish";
import { BATCH_SIZE } from "./plan";
import { addUsage, getQuota, quotaPeriod } from "./quota";

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
/** A boost that cannot warm now (paused, keep-warm off, its site not validated, its organization suspended) is looked at again this much later. */
const RECHECK_LATER_MS = 3600_000;

/** The trigger of a boost's keep-warm runs: its window, in the words of the run page. */
function keepWarmTrigger(): RunTrigger {
  return { kind: "keep_warm", label: `one run per ${plural(setting("PREHEAT_KEEP_WARM_WINDOW_MINUTES"), "minute")}` };
}

type Boost = typeof boosts.$inferSelect;

/** Keep-warm calls the boost made this calendar month (UTC): its keep-warm runs' planned calls. */
export async function keepWarmCallsThisMonth(db: Database, boostId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ calls: sql<number>`coalesce(sum(${runs.plannedCalls}), 0)`.mapWith(Number) })
    .from(runs)
    .where(and(eq(runs.boostId, boostId), eq(runs.trigger, "keep_warm"), gt(runs.createdAt, quotaPeriod(now).start)));
  return row?.calls ?? 0;
}

/**
 * Whether the boost's due entries wait instead: the boost paused (by hand, or
 * by its errors), its site's ownership not proven, or its organization suspended. Its plan's limits
 * hold as for any run (the regions it may warm are checked when the boost is saved).
 */
async function cannotWarm(db: Database, boost: Boost | undefined, siteValidated: boolean, accountId: number): Promise<boolean> {
  if (!boost || boost.status === "paused" || !siteValidated) return true;
  return Boolean((await standingOf(db, accountId)).suspension);
}

/**
 * The entries of one boost that its month's budget and the organization's quota leave room for,
 * highest priority first (the boost's URL order); the rest wait.
 */
async function affordable(db: Database, boost: Boost, entries: DueEntry[], now: Date): Promise<{ warm: DueEntry[]; wait: DueEntry[] }> {
  const byPriority = [...entries].sort((a, b) => a.priority - b.priority || a.dueAt.getTime() - b.dueAt.getTime());
  let room = (await getQuota(db, entries[0]!.accountId, now)).remaining;
  if (boost.monthlyCallBudget !== null) room = Math.min(room, Math.max(0, boost.monthlyCallBudget - (await keepWarmCallsThisMonth(db, boost.id, now))));
  return { warm: byPriority.slice(0, room), wait: byPriority.slice(room) };
}

/**
 * The boost's open keep-warm run (one per boost per window), or a new one: created running, since
 * its calls come from the entries, not from planning.
 */
async function openRun(tx: Database, boost: Boost, accountId: number, now: Date): Promise<{ run: typeof runs.$inferSelect; opened: boolean }> {
  const [open] = await tx
    .select()
    .from(runs)
    .where(and(eq(runs.boostId, boost.id), eq(runs.trigger, "keep_warm"), eq(runs.status, "running"), gt(runs.openUntil, new Date(now.getTime() + 5_000))))
    .for("update");
  if (open) return { run: open, opened: false };
  const { plan } = await standingOf(tx, accountId);
  const trigger = keepWarmTrigger();
  const [created] = await tx
    .insert(runs)
    .values({
      kind: "boost",
      siteId: boost.siteId,
      accountId,
      boostId: boost.id,
      status: "running",
      regions: boost.regions,
      variations: boost.variations,
      requestProfile: boost.requestProfile,
      resultsMax: runResultsMaxOf(plan),
      trigger: trigger.kind,
      triggerLabel: trigger.label,
      startedAt: now,
      openUntil: new Date(now.getTime() + setting("PREHEAT_KEEP_WARM_WINDOW_MINUTES") * 60_000),
      statusMessage: "Keep-warm: re-warms each page as its shared-cache lifetime ends.",
    })
    .returning();
  return { run: created!, opened: true };
}

/** Adds the calls to the boost's open keep-warm run as batches, counts them, and answers the run, whether this opened it, and the regions to warm. */
async function addToRun(db: Database, boost: Boost, entries: DueEntry[], now: Date): Promise<{ runId: number; siteId: number; opened: boolean; regions: RegionCode[] }> {
  const accountId = entries[0]!.accountId;
  const attempt = () =>
    db.transaction(async (tx) => {
      const { run, opened } = await openRun(tx, boost, accountId, now);
      const [last] = await tx
        .select({ seq: max(runBatches.seq) })
        .from(runBatches)
        .where(eq(runBatches.runId, run.id));
      let seq = (last?.seq ?? -1) + 1;
      const byRegion = new Map<string, PlannedCall[]>();
      for (const entry of entries) byRegion.set(entry.region, [...(byRegion.get(entry.region) ?? []), entry.call]);
      for (const [region, calls] of byRegion) {
        for (let i = 0; i < calls.length; i += BATCH_SIZE) await tx.insert(runBatches).values({ runId: run.id, seq: seq++, region, calls: calls.slice(i, i + BATCH_SIZE) });
      }
      await tx
        .update(runs)
        .set({ plannedCalls: sql`${runs.plannedCalls} + ${entries.length}` })
        .where(eq(runs.id, run.id));
      await addUsage(tx, accountId, now, entries.length);
      return { runId: run.id, siteId: run.siteId, opened, regions: [...byRegion.keys()] as RegionCode[] };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two ticks opened the boost's run at once: the index let one win, and this one joins it.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

/**
 * One pass of the keep-warm tick (ADR 0010): claims every entry due by `now` (or a quarter of the slack
 * after it: CLAIM_AHEAD_OF_SLACK), page by page, and adds
 * each boost's to its open keep-warm run; entries of a boost that cannot warm now, or that its
 * budget or quota leave out, wait. Answers the calls added.
 */
export async function warmDueEntries(db: Database, now = new Date()): Promise<number> {
  const floor = setting("PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS");
  const dueBy = new Date(now.getTime() + setting("PREHEAT_KEEP_WARM_SLACK_SECONDS") * 1000 * CLAIM_AHEAD_OF_SLACK);
  let added = 0;
  for (;;) {
    const due = await claimDueEntries(db, dueBy, CLAIM_PAGE, floor);
    if (!due.length) return added;
    const byBoost = new Map<number, DueEntry[]>();
    for (const entry of due) byBoost.set(entry.boostId, [...(byBoost.get(entry.boostId) ?? []), entry]);
    const rows = await db
      .select({ boost: boosts, validated: sites.validated })
      .from(boosts)
      .innerJoin(sites, eq(sites.id, boosts.siteId))
      .where(inArray(boosts.id, [...byBoost.keys()]));
    const found = new Map(rows.map((row) => [row.boost.id, row]));
    for (const [boostId, entries] of byBoost) {
      const row = found.get(boostId);
      // Keep-warm turned off since: its entries go, rather than coming back every hour.
      if (row && !row.boost.keepWarm) {
        await forgetEntries(db, boostId);
        continue;
      }
      if (!row || (await cannotWarm(db, row.boost, row.validated, entries[0]!.accountId))) {
        await postponeEntries(db, entries, new Date(now.getTime() + RECHECK_LATER_MS));
        continue;
      }
      const { warm, wait } = await affordable(db, row.boost, entries, now);
      await postponeEntries(db, wait, new Date(now.getTime() + RECHECK_LATER_MS));
      if (!warm.length) continue;
      const { runId, siteId, opened, regions } = await addToRun(db, row.boost, warm, now);
      added += warm.length;
      // The site's Crawl-delay (its robots.txt, once a day) paces the re-warms as it paces every run:
      // looked at when a window's run opens, not on every pass of the tick.
      if (opened) await refreshCrawlDelay(db, siteId, new URL(warm[0]!.call.url).origin, now);
      for (const region of regions) await sendJob("run.batch", { runId, siteId, region });
    }
    if (due.length < CLAIM_PAGE) return added;
  }
}

/** Ends the keep-warm runs whose window has passed and whose batches are all warmed; answers those ended. */
export async function closeKeepWarmRuns(db: Database, now = new Date()): Promise<number[]> {
  const closing = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.trigger, "keep_warm"), eq(runs.status, "running"), isNotNull(runs.openUntil), lte(runs.openUntil, now)));
  const ended: number[] = [];
  for (const { id } of closing) {
    if (!(await finishRun(db, id))) continue;
    ended.push(id);
    await sendJob("run.ended", { runId: id });
  }
  return ended;
}
