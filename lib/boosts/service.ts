import { assertPlanRegions, assertPlanVerification, type EffectivePlan, planOf } from "@/lib/plans/limits";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { boostSitemaps, boosts, runs, sites } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { ConflictError, InvalidError, notFound } from "@/lib/core/errors";
import { ACTIVE_RUN_STATUSES } from "@/lib/core/run-status";
import { requireSiteSitemaps } from "@/lib/sitemaps/service";
import { getSite } from "@/lib/sites/service";
import { type SiteOwner, withinSiteLimit } from "@/lib/sites/site-limit";
import { unvalidatedLimits } from "@/lib/sites/unvalidated-limits";
import { requestProfileOf, sealRequestProfile, toRequestProfile, updatedRequestProfile } from "@/lib/runs/request-profile";
import { nextFullRunAt } from "@/lib/core/schedule";
import { forgetEntries, wakeWaitingEntries } from "@/lib/freshness/entries";
import type { BoostPayload } from "@/lib/boosts/schemas";
import { askedOrder, CSV_ONLY_CHANGED_PROBLEM, CSV_ORDER_PROBLEM, type CreateBoostInput, type UpdateBoostInput } from "@/lib/core/boost-requests";
import { verifyColumns, verifyMode } from "@/lib/core/variations";

export type BoostRow = typeof boosts.$inferSelect;
/** A boost as the API shows it: with its sitemaps, and whether its site is validated (the caps depend on it). */
export type BoostWithSitemaps = BoostRow & { sitemapIds: number[]; siteValidated: boolean };

export function toBoost(row: BoostWithSitemaps): BoostPayload {
  return {
    id: row.id,
    site_id: row.siteId,
    name: row.name,
    status: row.status as BoostPayload["status"],
    source_type: row.sourceType as BoostPayload["source_type"],
    region: row.regions as BoostPayload["region"],
    sitemap_ids: row.sitemapIds,
    source_url: row.sourceUrl,
    url_root: row.urlRoot,
    exclude_ext: row.excludeExt,
    variations: (row.variations as BoostPayload["variations"]) ?? null,
    request_profile: toRequestProfile(row.requestProfile),
    content_types: row.contentTypes as BoostPayload["content_types"],
    ignore_errors: row.ignoreErrors,
    verify: verifyMode(row),
    report_email_enabled: row.reportEmailEnabled,
    schedule: row.schedule,
    next_run_at: iso(row.nextRunAt),
    keep_warm: row.keepWarm,
    keep_warm_lead: row.keepWarmLead,
    monthly_call_budget: row.monthlyCallBudget,
    call_limit: row.callLimit,
    url_order: row.order,
    order: row.order,
    only_changed: row.onlyChanged,
    unvalidated_limits: unvalidatedLimits(row.siteValidated),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function withSitemapIds(db: Database, rows: BoostRow[]): Promise<BoostWithSitemaps[]> {
  if (!rows.length) return [];
  const [links, siteRows] = await Promise.all([
    db
      .select()
      .from(boostSitemaps)
      .where(
        inArray(
          boostSitemaps.boostId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(boostSitemaps.sitemapId),
    db
      .select({ id: sites.id, validated: sites.validated })
      .from(sites)
      .where(inArray(sites.id, [...new Set(rows.map((r) => r.siteId))])),
  ]);
  const validated = new Map(siteRows.map((site) => [site.id, site.validated]));
  return rows.map((row) => ({ ...row, sitemapIds: links.filter((l) => l.boostId === row.id).map((l) => l.sitemapId), siteValidated: validated.get(row.siteId) ?? false }));
}

/** The regions and verification a boost asks for, against the organization's plan (only what the input sets). */
function assertBoostWithinPlan(plan: EffectivePlan, input: { region?: readonly string[]; verify?: unknown }): void {
  if (input.region) assertPlanRegions(plan, input.region);
  assertPlanVerification(plan, Boolean(input.verify));
}

export async function createBoost(ctx: AccountContext, siteId: number, input: CreateBoostInput): Promise<BoostWithSitemaps> {
  const site = await getSite(ctx, siteId);
  const sitemapIds = input.source_type === "sitemap" ? (input.sitemap_ids ?? []) : [];
  if (sitemapIds.length) await requireSiteSitemaps(ctx, site.id, sitemapIds);
  assertBoostWithinPlan(await planOf(ctx.db, ctx.accountId), input);
  const row = await ctx.db.transaction(async (tx) => {
    const [boost] = await tx
      .insert(boosts)
      .values({
        siteId: site.id,
        name: input.name,
        sourceType: input.source_type,
        regions: input.region,
        sourceUrl: input.source_type === "csv" ? (input.source_url ?? null) : null,
        urlRoot: input.url_root ?? "/",
        excludeExt: input.exclude_ext ?? null,
        variations: input.variations ?? null,
        requestProfile: sealRequestProfile(requestProfileOf(input)),
        contentTypes: input.content_types ?? null,
        ignoreErrors: input.ignore_errors ?? false,
        ...verifyColumns(input.verify ?? false),
        reportEmailEnabled: input.report_email_enabled ?? true,
        schedule: input.schedule ?? null,
        keepWarm: input.keep_warm ?? false,
        keepWarmLead: input.keep_warm_lead ?? 0,
        monthlyCallBudget: input.monthly_call_budget ?? null,
        nextRunAt: nextFullRunAt({ schedule: input.schedule ?? null, keepWarm: input.keep_warm ?? false }, new Date(), true),
        callLimit: input.call_limit ?? null,
        order: askedOrder(input) ?? "sitemap",
        onlyChanged: input.only_changed ?? false,
      })
      .returning();
    if (sitemapIds.length) await tx.insert(boostSitemaps).values(sitemapIds.map((sitemapId) => ({ boostId: boost!.id, sitemapId })));
    return boost!;
  });
  return { ...row, sitemapIds, siteValidated: site.validated };
}

/** The boost if it belongs to the caller's account and a site it sees (and to `siteId` when the path names a site). */
export async function getBoostRow(db: Database, owner: SiteOwner, boostId: number, siteId?: number, lock = false): Promise<BoostRow> {
  let query = db
    .select({ boost: boosts })
    .from(boosts)
    .innerJoin(sites, eq(sites.id, boosts.siteId))
    .where(and(eq(boosts.id, boostId), eq(sites.accountId, owner.accountId), withinSiteLimit(owner, boosts.siteId), siteId === undefined ? undefined : eq(boosts.siteId, siteId)))
    .$dynamic();
  if (lock) query = query.for("update", { of: boosts });
  const [row] = await query;
  if (!row) throw notFound("Boost");
  return row.boost;
}

export async function getBoost(ctx: AccountContext, boostId: number, siteId?: number): Promise<BoostWithSitemaps> {
  const row = await getBoostRow(ctx.db, ctx, boostId, siteId);
  const [boost] = await withSitemapIds(ctx.db, [row]);
  return boost!;
}

export async function listBoosts(ctx: AccountContext, siteId: number, page: Page) {
  await getSite(ctx, siteId);
  const where = eq(boosts.siteId, siteId);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(boosts).where(where).orderBy(desc(boosts.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(boosts).where(where),
  ]);
  return { rows: await withSitemapIds(ctx.db, rows), total: total?.n ?? 0 };
}

/**
 * The boost's runs in progress, as the one-run-at-a-time rule counts them: pending or running, its
 * keep-warm runs aside (they go on beside its scheduled and triggered runs, ADR 0010).
 */
export function activeRunsOf(boostId: number) {
  return and(eq(runs.boostId, boostId), inArray(runs.status, [...ACTIVE_RUN_STATUSES]), sql`${runs.trigger} is distinct from 'keep_warm'`);
}

export async function hasActiveRun(db: Database, boostId: number): Promise<boolean> {
  const [active] = await db.select({ id: runs.id }).from(runs).where(activeRunsOf(boostId)).limit(1);
  return Boolean(active);
}

export async function updateBoost(ctx: AccountContext, boostId: number, input: UpdateBoostInput, siteId?: number): Promise<BoostWithSitemaps> {
  const current = await getBoostRow(ctx.db, ctx, boostId, siteId);
  if (input.sitemap_ids && current.sourceType !== "sitemap") throw new InvalidError("sitemap_ids: only applies to boosts with source_type sitemap.");
  if (input.source_url && current.sourceType !== "csv") throw new InvalidError("source_url: only applies to boosts with source_type csv.");
  const order = askedOrder(input);
  if (current.sourceType === "csv" && order && order !== "sitemap" && order !== "traffic")
    throw new InvalidError(`url_order: ${CSV_ORDER_PROBLEM}.`, [{ field: "url_order", message: CSV_ORDER_PROBLEM }]);
  if (current.sourceType === "csv" && input.only_changed) throw new InvalidError(`only_changed: ${CSV_ONLY_CHANGED_PROBLEM}.`, [{ field: "only_changed", message: CSV_ONLY_CHANGED_PROBLEM }]);
  if (input.sitemap_ids) await requireSiteSitemaps(ctx, current.siteId, input.sitemap_ids);
  assertBoostWithinPlan(await planOf(ctx.db, ctx.accountId), input);

  await ctx.db.transaction(async (tx) => {
    const boost = await getBoostRow(tx, ctx, boostId, siteId, true);
    if (await hasActiveRun(tx, boost.id)) throw new ConflictError("This boost has a run in progress; update it once the run has ended.", undefined, "run_in_progress");
    const changes: Partial<typeof boosts.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.region !== undefined) changes.regions = input.region;
    if (input.url_root !== undefined) changes.urlRoot = input.url_root;
    if (input.exclude_ext !== undefined) changes.excludeExt = input.exclude_ext;
    if (input.variations !== undefined) changes.variations = input.variations;
    const profile = updatedRequestProfile(input, boost.requestProfile);
    if (profile !== undefined) changes.requestProfile = profile;
    if (input.source_url !== undefined) changes.sourceUrl = input.source_url;
    if (input.content_types !== undefined) changes.contentTypes = input.content_types;
    if (input.call_limit !== undefined) changes.callLimit = input.call_limit;
    if (order !== undefined) changes.order = order;
    if (input.only_changed !== undefined) changes.onlyChanged = input.only_changed;
    if (input.ignore_errors !== undefined) changes.ignoreErrors = input.ignore_errors;
    if (input.verify !== undefined) Object.assign(changes, verifyColumns(input.verify));
    if (input.report_email_enabled !== undefined) changes.reportEmailEnabled = input.report_email_enabled;
    if (input.keep_warm !== undefined) changes.keepWarm = input.keep_warm;
    if (input.keep_warm_lead !== undefined) changes.keepWarmLead = input.keep_warm_lead;
    if (input.monthly_call_budget !== undefined) changes.monthlyCallBudget = input.monthly_call_budget;
    if (input.schedule !== undefined) changes.schedule = input.schedule;
    const turnedOn = input.keep_warm === true && !boost.keepWarm;
    // Any update of a paused boost is the owner's go-ahead: it resumes, and its schedule fires again.
    if (boost.status === "paused") changes.status = "active";
    if (input.schedule !== undefined || input.keep_warm !== undefined || boost.status === "paused") {
      // A schedule set to null is a change too: `??` would put the old one back.
      const schedule = changes.schedule !== undefined ? changes.schedule : boost.schedule;
      changes.nextRunAt = nextFullRunAt({ schedule, keepWarm: changes.keepWarm ?? boost.keepWarm }, new Date(), turnedOn);
    }
    changes.updatedAt = new Date();
    await tx.update(boosts).set(changes).where(eq(boosts.id, boost.id));
    if (input.keep_warm === false && boost.keepWarm) await forgetEntries(tx, [boost.id]);
    else if (boost.status === "paused") await wakeWaitingEntries(tx, { boostId: boost.id });
    if (input.sitemap_ids) {
      await tx.delete(boostSitemaps).where(eq(boostSitemaps.boostId, boost.id));
      await tx.insert(boostSitemaps).values(input.sitemap_ids.map((sitemapId) => ({ boostId: boost.id, sitemapId })));
    }
  });
  return getBoost(ctx, boostId, siteId);
}

export async function deleteBoost(ctx: AccountContext, boostId: number, siteId?: number): Promise<void> {
  const boost = await getBoostRow(ctx.db, ctx, boostId, siteId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(boosts).where(eq(boosts.id, boost.id));
    // The site's changes are warmed with a warm's defaults again.
    await tx
      .update(sites)
      .set({ changeBoostId: null })
      .where(and(eq(sites.id, boost.siteId), eq(sites.changeBoostId, boost.id)));
  });
}
