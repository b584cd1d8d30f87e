import { visitShareOutput } from "@/lib/core/traffic";
import { assertPlanRegions, assertPlanVerification, runResultsMaxOf } from "@/lib/plans/limits";
import { activeStanding } from "@/lib/plans/suspension";
import { and, desc, eq, gte, type Placeholder, type SQL, sql } from "drizzle-orm";
import { preparedOnce } from "@/lib/db/prepared";
import { inIdsPlaceholder } from "@/lib/db/recordset";
import { boostRunCounts, boosts, type RunBreakdown, runs, sites } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import type { Summary } from "@/lib/core/run-figures";
import type { RunTrigger } from "@/lib/core/run-trigger";
import { iso } from "@/lib/core/primitives";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { notFound, TooManyRequestsError } from "@/lib/core/errors";
import { toRequestProfile } from "./request-profile";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";
import { withinSiteLimit } from "@/lib/sites/site-limit";
import type { z } from "zod";
import type { runDetailSchema, runListItemSchema, warmRunSchema } from "./schemas";
import { breakdownFrom, emptySummary, summariseRuns, summaryOf } from "./summary";
import { figuresOfRuns, type RunFigures } from "./batch-figures";
import { type FinishedStamp, keepEntry, keptEntry } from "./finished-entries";
import { keptListingRead } from "./listing-changes";

export type RunRow = typeof runs.$inferSelect;
type BoostRow = typeof boosts.$inferSelect;

/** The columns a run's list entry shows: lists read these only (a run's samples and URLs can weigh kilobytes). */
const listedColumns = {
  id: runs.id,
  number: runs.number,
  boostId: runs.boostId,
  status: runs.status,
  statusMessage: runs.statusMessage,
  plannedCalls: runs.plannedCalls,
  startedAt: runs.startedAt,
  finishedAt: runs.finishedAt,
  createdAt: runs.createdAt,
  summary: runs.summary,
  trigger: runs.trigger,
  triggerLabel: runs.triggerLabel,
  visitShare: runs.visitShare,
};
type ListedRun = Pick<RunRow, keyof typeof listedColumns>;

/** The run's columns that record what started it. */
export function triggerColumns(trigger: RunTrigger | undefined) {
  return { trigger: trigger?.kind ?? null, triggerLabel: trigger?.label ?? null };
}

/** The common part of every run shape, with its summary and progress. */
export async function runViews<Row extends ListedRun>(db: Database, rows: Row[]) {
  // Finished runs carry their final figures; only the others are summed from their batches.
  const summaries = await summariseRuns(
    db,
    rows.filter((r) => !r.summary).map((r) => r.id),
  );
  return rows.map((row) => ({ row, common: commonView(row, summaries.get(row.id)) }));
}

/** A run's common part, with its summary: the one kept when it ended, else `summed` from its batches. */
function commonView(row: ListedRun, summed: Summary | undefined) {
  // A summary kept before a figure existed (blocked_by) shows it as none.
  const summary = row.summary ? { ...emptySummary(), ...row.summary } : (summed ?? emptySummary());
  return {
    id: row.id,
    number: row.number,
    status: row.status as z.infer<typeof runListItemSchema>["status"],
    status_message: row.statusMessage,
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    summary,
    progress: { planned_calls: row.plannedCalls, completed_calls: summary.total_calls },
    created_at: row.createdAt.toISOString(),
    triggered_by: row.trigger ? { kind: row.trigger, label: row.triggerLabel } : null,
    visit_share: row.visitShare ? visitShareOutput(row.visitShare) : null,
  };
}

type Value<T> = T | Placeholder;

/** An account's boost runs (of one boost, when given), within a site-limited key's sites. */
const boostRunsWhere = (accountId: Value<number>, boostId: Value<number> | undefined, siteLimit?: SQL) =>
  and(eq(runs.accountId, accountId), siteLimit, eq(runs.kind, "boost"), boostId === undefined ? undefined : eq(runs.boostId, boostId));

/**
 * How many runs boostRunsWhere finds: a sum of their boosts' kept counts (boost_run_counts), a few
 * rows whatever the organization's history, where a count read every run it ever had.
 */
const totalOfRuns = (db: Database, accountId: Value<number>, boostId: Value<number> | undefined, siteLimit?: SQL) =>
  db
    .select({ n: sql<number>`coalesce(sum(${boostRunCounts.runs}), 0)`.mapWith(Number) })
    .from(boostRunCounts)
    .where(and(eq(boostRunCounts.accountId, accountId), siteLimit, boostId === undefined ? undefined : eq(boostRunCounts.boostId, boostId)));

type RunsFilter = { accountId: Value<number>; boostId: Value<number> | undefined; owner?: Pick<AccountContext, "siteIds"> };

/** What a page reads of each run: enough to tell whether its kept entry still holds (lib/runs/finished-entries.ts). */
const pageStamps = { id: runs.id, status: runs.status, finishedAt: runs.finishedAt };

/** The listed columns of the runs a page had no kept entry for. */
const listedRunsById = preparedOnce((db) => db.select(listedColumns).from(runs).where(inIdsPlaceholder(runs.id, "ids")).prepare("listed_runs_by_id"));

/**
 * The page's runs and the total in one statement: the busiest read of the API (docs/benchmarks.md). The
 * first page has no OFFSET: PostgreSQL plans a statement with an OFFSET parameter afresh on every
 * run (its generic plan looks dearer than a custom one), which made the statement 60 % slower.
 */
function pageOfRuns(db: Database, { accountId, boostId, owner = { siteIds: null } }: RunsFilter, limit: Value<number>, offset: Value<number> | undefined) {
  const total = totalOfRuns(db, accountId, boostId, withinSiteLimit(owner, boostRunCounts.siteId));
  const page = db
    .select({ ...pageStamps, total: sql<number>`(${total})`.mapWith(Number) })
    .from(runs)
    .where(boostRunsWhere(accountId, boostId, withinSiteLimit(owner, runs.siteId)))
    .orderBy(desc(runs.id))
    .limit(limit)
    .$dynamic();
  return offset === undefined ? page : page.offset(offset);
}

/** A page of runs for a key that sees every site of its organization (most keys): built once per shape. */
const preparedPage = (name: string, ofBoost: boolean, offset: boolean) =>
  preparedOnce((db) => {
    const filter = { accountId: sql.placeholder("accountId"), boostId: ofBoost ? sql.placeholder("boostId") : undefined };
    return pageOfRuns(db, filter, sql.placeholder("limit"), offset ? sql.placeholder("offset") : undefined).prepare(name);
  });
const runsPages = { first: preparedPage("runs_first_page", false, false), later: preparedPage("runs_page", false, true) };
const boostRunsPages = { first: preparedPage("boost_runs_first_page", true, false), later: preparedPage("boost_runs_page", true, true) };

export async function listRuns(ctx: AccountContext, filter: { boostId?: number }, page: Page) {
  const { accountId } = ctx;
  const { boostId } = filter;
  const offset = page.offset || undefined;
  const statement = (boostId === undefined ? runsPages : boostRunsPages)[offset ? "later" : "first"];
  const rows = ctx.siteIds
    ? await pageOfRuns(ctx.db, { accountId, boostId, owner: ctx }, page.limit, offset)
    : await keptListingRead(ctx.db, accountId, `${boostId ?? "all"}/${page.limit}/${offset ?? 0}`, () => statement(ctx.db).execute({ accountId, boostId, limit: page.limit, offset }));
  // Past the last page no row carries the total.
  const total = rows[0]?.total ?? (page.offset ? await countBoostRuns(ctx, boostId) : 0);
  return { data: await listEntries(ctx.db, rows), total };
}

type ListItem = z.infer<typeof runListItemSchema>;

/** The page's entries in its order: those of finished runs shown before as they were kept, the others read and made now. */
async function listEntries(db: Database, page: (FinishedStamp & { id: number })[]): Promise<ListItem[]> {
  const kept = page.map((stamp) => keptEntry<ListItem>(db, stamp.id, stamp));
  const missing = page.filter((_, i) => !kept[i]).map((stamp) => stamp.id);
  if (missing.length) {
    const read = await listedRunsById(db).execute({ ids: JSON.stringify(missing) });
    const made = new Map(
      (await runViews(db, read)).map(({ row, common }) => {
        const entry: ListItem = { boost_id: row.boostId!, ...common };
        // Kept as the row it was made from says, which may be newer than the page's stamp.
        keepEntry(db, row.id, { status: row.status, finishedAt: row.finishedAt, hasFinalFigures: row.summary !== null }, entry);
        return [row.id, entry];
      }),
    );
    page.forEach((stamp, i) => {
      kept[i] ??= made.get(stamp.id);
    });
  }
  // A run deleted between the two reads is left out.
  return kept.filter((entry): entry is ListItem => entry !== undefined);
}

async function countBoostRuns(ctx: AccountContext, boostId: number | undefined): Promise<number> {
  const [counted] = await totalOfRuns(ctx.db, ctx.accountId, boostId, withinSiteLimit(ctx, boostRunCounts.siteId));
  return counted?.n ?? 0;
}

/** The account's run, or 404: another account's run (or one of a site the key does not see) does not exist for this one. */
export async function findRun(ctx: AccountContext, runId: number): Promise<RunRow> {
  const [found] = await ctx.db
    .select({ run: runs })
    .from(runs)
    .where(and(eq(runs.id, runId), eq(runs.accountId, ctx.accountId), withinSiteLimit(ctx, runs.siteId)));
  if (!found) throw notFound("Run");
  return found.run;
}

/** A breakdown kept before regions named their PoPs, or before variants were counted, is read again from the batches, once. */
const keptBreakdown = (run: RunRow) => (run.breakdown?.variants && run.breakdown.regions.every((region) => region.reached) ? (run.breakdown as Required<RunBreakdown>) : undefined);

/**
 * The run's figures per region, per PoP and per variant. finishRun keeps a run's breakdown with its
 * final summary; a run ended before it did (or whose kept breakdown predates a figure) has final
 * batches too: its breakdown is aggregated once, by the first read, and kept. `figures`: the run's,
 * when the caller read them already.
 */
export async function breakdownOf(db: Database, run: RunRow, figures?: RunFigures): Promise<Required<RunBreakdown>> {
  const kept = keptBreakdown(run);
  if (kept) return kept;
  const ofRun = figures ?? (await figuresOfRuns(db, [run.id])).get(run.id);
  if (!ofRun) throw notFound("Run");
  const breakdown = await breakdownFrom(db, ofRun);
  if (run.summary) await db.update(runs).set({ breakdown }).where(eq(runs.id, run.id));
  return breakdown;
}

function runWithBoostName(db: Database, runId: Value<number>, accountId: Value<number>, siteLimit?: SQL) {
  return db
    .select({ run: runs, boostName: boosts.name })
    .from(runs)
    .leftJoin(boosts, eq(boosts.id, runs.boostId))
    .where(and(eq(runs.id, runId), eq(runs.accountId, accountId), siteLimit));
}

const runOfAccount = preparedOnce((db) => runWithBoostName(db, sql.placeholder("runId"), sql.placeholder("accountId")).prepare("run_of_account"));

export async function getRun(ctx: AccountContext, runId: number): Promise<z.infer<typeof runDetailSchema>> {
  const [found] = ctx.siteIds ? await runWithBoostName(ctx.db, runId, ctx.accountId, withinSiteLimit(ctx, runs.siteId)) : await runOfAccount(ctx.db).execute({ runId, accountId: ctx.accountId });
  if (!found) throw notFound("Run");
  const row = found.run;
  // A running run's summary and breakdown come from one read of its batches; a finished run's are kept.
  const figures = !row.summary || !keptBreakdown(row) ? (await figuresOfRuns(ctx.db, [row.id])).get(row.id) : undefined;
  if (!figures && !row.summary) throw notFound("Run");
  const breakdown = await breakdownOf(ctx.db, row, figures);
  const common = commonView(row, figures && summaryOf(figures));
  return {
    type: row.kind,
    boost_id: row.boostId,
    boost_name: found.boostName,
    site_id: row.siteId,
    region: row.regions as z.infer<typeof runDetailSchema>["region"],
    variations: (row.variations as z.infer<typeof runDetailSchema>["variations"]) ?? null,
    request_profile: toRequestProfile(row.requestProfile),
    ...common,
    bypassed_calls: breakdown.regions.reduce((sum, region) => sum + region.bypassed_calls, 0),
    regions_breakdown: breakdown.regions,
    pops_breakdown: breakdown.pops,
    variants_breakdown: breakdown.variants,
    failure_samples: row.failureSamples ?? [],
    slowdowns: row.slowdowns ?? [],
  };
}

export async function toWarmRuns(db: Database, rows: RunRow[]): Promise<z.infer<typeof warmRunSchema>[]> {
  const views = await runViews(db, rows);
  return views.map(({ row, common }) => ({
    ...common,
    source_urls: row.sourceUrls ?? [],
    url_count: row.sourceUrls?.length ?? 0,
    run_region: row.regions as z.infer<typeof warmRunSchema>["run_region"],
  }));
}

/**
 * Creates a pending run of the boost (inside the caller's transaction, with the boost row locked)
 * and marks the boost running; a paused boost is resumed by this. One active run per boost. Refused
 * for a suspended organization, and when its plan no longer offers the boost's regions or verification.
 */
export async function insertBoostRun(tx: Database, boost: BoostRow, trigger: RunTrigger | undefined): Promise<RunRow> {
  const [site] = await tx.select({ accountId: sites.accountId }).from(sites).where(eq(sites.id, boost.siteId));
  const { plan } = await activeStanding(tx, site!.accountId);
  assertPlanRegions(plan, boost.regions);
  assertPlanVerification(plan, boost.verify || boost.verifyVisitors);
  const [created] = await tx
    .insert(runs)
    .values({
      kind: "boost",
      siteId: boost.siteId,
      accountId: site!.accountId,
      boostId: boost.id,
      regions: boost.regions,
      variations: boost.variations,
      // The profile as it is now: a later edit of the boost does not change what this run sends.
      requestProfile: boost.requestProfile,
      verify: boost.verify,
      verifyVisitors: boost.verifyVisitors,
      resultsMax: runResultsMaxOf(plan),
      ...triggerColumns(trigger),
    })
    .returning();
  await tx.update(boosts).set({ status: "running", updatedAt: new Date() }).where(eq(boosts.id, boost.id));
  return created!;
}

/**
 * A site whose ownership is not proven runs at most UNVALIDATED_LIMITS.runsPerDay boost runs in 24
 * hours, however many boosts and schedules it has.
 */
export async function assertUnvalidatedRunBudget(tx: Database, siteId: number, now = new Date()): Promise<{ siteValidated: boolean }> {
  const [site] = await tx.select({ validated: sites.validated }).from(sites).where(eq(sites.id, siteId));
  if (!site || site.validated) return { siteValidated: true };
  const since = new Date(now.getTime() - 24 * 3600_000);
  const recent = await tx
    .select({ createdAt: runs.createdAt })
    .from(runs)
    // Keep-warm runs are not counted: they never start on a site whose ownership is not proven (lib/runs/keep-warm.ts).
    // Changes runs are (lib/changes/queue.ts): each is one more run at the site.
    .where(and(eq(runs.siteId, siteId), gte(runs.createdAt, since), sql`((${runs.kind} = 'boost' and ${runs.trigger} is distinct from 'keep_warm') or ${runs.trigger} = 'changes')`))
    .orderBy(desc(runs.createdAt))
    .limit(UNVALIDATED_LIMITS.runsPerDay);
  if (recent.length < UNVALIDATED_LIMITS.runsPerDay) return { siteValidated: false };
  const oldest = recent[recent.length - 1]!.createdAt;
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + 24 * 3600_000 - now.getTime()) / 1000));
  throw new TooManyRequestsError(
    `The site is not validated, so it runs at most ${UNVALIDATED_LIMITS.runsPerDay} boost runs in 24 hours (warms of its changes count too): the next one may start in ${Math.ceil(retryAfter / 60)} minutes. Validate the site to lift this cap.`,
    retryAfter,
    "too_many_runs",
  );
}
