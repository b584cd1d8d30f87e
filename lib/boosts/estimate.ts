import { keepWarmFigures } from "@/lib/freshness/entries";
import { and, eq, inArray } from "drizzle-orm";
import { sitemaps } from "@/drizzle/schema";
import { getQuota } from "@/lib/runs/quota";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { type CallPlan, countCallsByRegion, countCallsByVariant } from "@/lib/runs/calls";
import { type BoostSelection, type BoostSource, boostSourceOf, selectBoostCalls } from "@/lib/runs/plan";
import { visitShareOutput } from "@/lib/core/traffic";
import { percentOf, plural } from "@/lib/core/format";
import { sharedEgressGroups, sharedEgressWarning } from "@/lib/core/regions";
import { checkCron, occurrencesBetween } from "@/lib/core/schedule";
import { visitorCheckNote } from "@/lib/runs/visitor-check";
import { getSite } from "@/lib/sites/service";
import { describeSourceError, isSourceError } from "@/lib/sources";
import { regionsWithEgress } from "@/lib/warm/workers";
import { askedOrder, type BoostDraft } from "@/lib/core/boost-requests";
import type { BoostEstimate } from "./schemas";
import { getBoostRow } from "./service";

/** The calls planning would select now, or why the source cannot be read (a run would fail the same way). */
async function selectNow(db: Database, source: BoostSource, site: { id: number; domain: string; validated: boolean }, plan: CallPlan) {
  try {
    return { selection: await selectBoostCalls(db, source, site, plan, false) };
  } catch (error) {
    if (!isSourceError(error)) throw error;
    return { unreadable: describeSourceError(error) };
  }
}

/** The days `calls_per_month` looks ahead: a month of the schedule, whatever day of the month it is. */
const MONTH_MS = 30 * 86_400_000;

/** What the schedule would spend in the next 30 days at `calls` a run; null without a schedule, or with an expression that is not a cron. */
function callsPerMonth(schedule: string | null, calls: number, now = new Date()): number | null {
  if (!schedule) return null;
  const checked = checkCron(schedule);
  if ("problem" in checked) return null;
  return occurrencesBetween(checked.expression, now, new Date(now.getTime() + MONTH_MS)) * calls;
}

/** The share of visits the URLs a run would warm carry: those the call limit covers, of every URL selected. */
function estimatedShare(selection: BoostSelection): BoostEstimate["visit_share"] {
  if (!selection.visitShare) return null;
  return { urls: selection.warmed, of_urls: selection.selected, ...visitShareOutput(selection.visitShare) };
}

/** The share in words, as the estimate's notes say it. */
function shareNote(selection: BoostSelection): string[] {
  const share = estimatedShare(selection);
  if (!share || share.share === null) return [];
  return [`these ${share.urls.toLocaleString("en")} of ${plural(share.of_urls, "URL")} carry ${percentOf(share.share)} of the last 30 days' visits`];
}

/**
 * What a run would do now, without doing it: the URLs and calls planning would make (the same
 * selection: filters, the caps of a site not validated, the call limit) from the sitemaps' current
 * lists (a stale one is not read again here; the run reads it first) or the CSV file read now; and
 * what the schedule would spend in a month at that many calls a run.
 */
async function estimate(
  db: Database,
  accountId: number,
  source: BoostSource,
  site: { id: number; domain: string; validated: boolean },
  plan: CallPlan,
  visitorCheck: boolean,
  schedule: string | null,
): Promise<BoostEstimate> {
  const [quota, regions] = await Promise.all([getQuota(db, accountId), regionsWithEgress(db)]);
  const selected = await selectNow(db, source, site, plan);
  const shared_egress = sharedEgressGroups(regions, plan.regions);
  const egressNotes = shared_egress.map((group) => sharedEgressWarning(regions, group));
  const { selection } = selected;
  if (selection) {
    return {
      urls: selection.urls.length,
      calls: selection.total,
      calls_by_region: countCallsByRegion(selection.urls.length, plan, selection.callLimit),
      calls_by_variant: countCallsByVariant(selection.urls.length, plan, selection.callLimit),
      quota_remaining: quota.remaining,
      calls_per_month: callsPerMonth(schedule, selection.total),
      monthly_quota: quota.limit,
      keep_warm_calls_per_month: null,
      keep_warm_left_cold: null,
      visit_share: estimatedShare(selection),
      unchanged_urls: selection.unchanged,
      notes: [
        ...selection.notes,
        ...shareNote(selection),
        ...egressNotes,
        ...(visitorCheck ? [visitorCheckNote(selection.urls.length, plan.regions.length, plan.variations?.cookie_sets?.length ?? 0)] : []),
      ],
      shared_egress,
    };
  }
  // A CSV file that cannot be read now: a run would fail the same way, so say so instead of guessing.
  return {
    urls: 0,
    calls: 0,
    calls_by_region: countCallsByRegion(0, plan),
    calls_by_variant: countCallsByVariant(0, plan),
    quota_remaining: quota.remaining,
    calls_per_month: callsPerMonth(schedule, 0),
    monthly_quota: quota.limit,
    keep_warm_calls_per_month: null,
    keep_warm_left_cold: null,
    visit_share: null,
    unchanged_urls: 0,
    notes: [`the CSV file could not be read: ${selected.unreadable}`, ...egressNotes],
    shared_egress,
  };
}

/** A saved boost as planning sees it: its URL source, its site and what each URL is called with. */
async function savedBoost(ctx: AccountContext, boostId: number) {
  const boost = await getBoostRow(ctx.db, ctx, boostId);
  const site = await getSite(ctx, boost.siteId);
  const plan: CallPlan = { regions: boost.regions, variations: boost.variations, requestProfile: boost.requestProfile };
  return { boost, source: await boostSourceOf(ctx.db, boost), site, plan, visitorCheck: boost.verifyVisitors, schedule: boost.schedule };
}

export async function estimateBoost(ctx: AccountContext, boostId: number): Promise<BoostEstimate> {
  const { boost, source, site, plan, visitorCheck, schedule } = await savedBoost(ctx, boostId);
  const estimated = await estimate(ctx.db, ctx.accountId, source, site, plan, visitorCheck, schedule);
  return withKeepWarm(ctx, estimated, boost.keepWarm ? boost.id : null, boost.monthlyCallBudget);
}

/**
 * Keep-warm's cost, from the lifetimes the boost's runs learned (the same figures as GET
 * /v1/boosts/{id}/keep-warm): `boostId` null when it keeps nothing warm, or has no runs yet (a draft).
 */
async function withKeepWarm(ctx: AccountContext, estimated: BoostEstimate, boostId: number | null, budget: number | null): Promise<BoostEstimate> {
  if (boostId === null) return estimated;
  const figures = await keepWarmFigures(ctx.db, boostId, budget);
  return { ...estimated, keep_warm_calls_per_month: figures.projectedMonthlyCalls, keep_warm_left_cold: budget === null ? null : figures.leftColdByBudget };
}

/** The estimate's `calls` alone (0 when the source cannot be read): what a run of the boost would make now. */
export async function boostCallsNow(ctx: AccountContext, boostId: number): Promise<number> {
  const { source, site, plan } = await savedBoost(ctx, boostId);
  return (await selectNow(ctx.db, source, site, plan)).selection?.total ?? 0;
}

/**
 * The estimate of a boost being edited on the dashboard, before it is saved: sitemaps of other
 * sites count for nothing, and only a boost of this site (the one being edited) is a baseline for
 * `only_changed`. The order changes which URLs a call limit keeps, and so the share of visits.
 */
export async function estimateBoostDraft(ctx: AccountContext, siteId: number, draft: BoostDraft): Promise<BoostEstimate> {
  const site = await getSite(ctx, siteId);
  const edited = draft.boost_id === undefined ? null : await getBoostRow(ctx.db, ctx, draft.boost_id, site.id);
  const asked = draft.sitemap_ids ?? [];
  const own = asked.length
    ? await ctx.db
        .select({ id: sitemaps.id })
        .from(sitemaps)
        .where(and(eq(sitemaps.siteId, site.id), inArray(sitemaps.id, asked)))
    : [];
  const source: BoostSource = {
    boostId: edited?.id ?? null,
    sourceType: draft.source_type,
    sourceUrl: draft.source_url ?? null,
    sitemapIds: own.map((s) => s.id),
    urlRoot: draft.url_root ?? "/",
    excludeExt: draft.exclude_ext ?? null,
    contentTypes: draft.content_types ?? null,
    callLimit: draft.call_limit ?? null,
    order: askedOrder(draft) ?? "sitemap",
    onlyChanged: draft.only_changed ?? false,
    keepWarm: draft.keep_warm ?? false,
    monthlyCallBudget: draft.monthly_call_budget ?? null,
  };
  const estimated = await estimate(
    ctx.db,
    ctx.accountId,
    source,
    site,
    { regions: draft.region, variations: draft.variations ?? null, requestProfile: draft.request_profile ?? null },
    draft.verify === "visitors",
    draft.schedule ?? null,
  );
  return withKeepWarm(ctx, estimated, draft.keep_warm && edited ? edited.id : null, draft.monthly_call_budget ?? null);
}
