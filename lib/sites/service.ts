import { randomBytes } from "node:crypto";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { accounts, boosts, sites } from "@/drizzle/schema";
import { assertPlanConcurrency, assertPlanSites, planOf } from "@/lib/plans/limits";
import { activeStanding } from "@/lib/plans/suspension";
import { iso } from "@/lib/core/primitives";
import type { Page } from "@/lib/core/pagination";
import type { AccountContext } from "@/lib/context";
import { isUniqueViolation } from "@/lib/db";
import { preparedOnce } from "@/lib/db/prepared";
import { ConflictError, InvalidError, notFound } from "@/lib/core/errors";
import { normaliseDomain } from "./domain-name";
import { siteConcurrency, type UpdateSiteInput } from "./pace";
import { ownershipRecheckOf } from "./recheck";
import type { SitePayload } from "./schemas";
import { newVerificationSecret, withVerificationSecret } from "./verification";
import type { SiteRow } from "./site-row";
import { siteLimitedKey, withinSiteLimit } from "./site-limit";

export function toSite(row: SiteRow): SitePayload {
  return {
    id: row.id,
    domain: row.domain,
    validated: row.validated,
    validation_token: row.validationToken,
    validation_method: (row.validationMethod as SitePayload["validation_method"]) ?? null,
    validated_at: iso(row.validatedAt),
    ownership_recheck: ownershipRecheckOf(row),
    // Every row that reaches here was read through getSite or listSites, which make a missing one.
    verification_secret: row.verificationSecret!,
    max_concurrency: siteConcurrency(row),
    max_requests_per_second: row.maxRequestsPerSecond,
    crawl_delay_seconds: row.crawlDelaySeconds,
    change_boost_id: row.changeBoostId,
    blocked_verdicts: row.blockedVerdicts ?? {},
    beacon_key: row.beaconKey,
    created_at: row.createdAt.toISOString(),
  };
}

export async function createSite(ctx: AccountContext, input: { domain: string }): Promise<SiteRow> {
  // The edge refuses it first (the operation is `wholeOrganization`); this holds for every other caller.
  if (ctx.siteIds) throw siteLimitedKey();
  const domain = normaliseDomain(input.domain);
  try {
    return await ctx.db.transaction(async (tx) => {
      // The organization's row, locked: two sites registered at once are counted one after the other.
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, ctx.accountId)).for("update");
      const { plan } = await activeStanding(tx, ctx.accountId);
      if (plan.limits.maxSites !== null) {
        const [registered] = await tx.select({ n: count() }).from(sites).where(eq(sites.accountId, ctx.accountId));
        assertPlanSites(plan, registered?.n ?? 0);
      }
      const [row] = await tx
        .insert(sites)
        .values({ accountId: ctx.accountId, domain, validationToken: `preheat-${randomBytes(16).toString("hex")}`, verificationSecret: newVerificationSecret() })
        .returning();
      return row!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`The site ${domain} is already registered in this account.`, undefined, "duplicate_site");
    throw error;
  }
}

export async function listSites(ctx: AccountContext, page: Page) {
  const where = and(eq(sites.accountId, ctx.accountId), withinSiteLimit(ctx, sites.id));
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(sites).where(where).orderBy(desc(sites.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(sites).where(where),
  ]);
  return { rows: await Promise.all(rows.map((row) => withVerificationSecret(ctx.db, row))), total: total?.n ?? 0 };
}

// Most keys see every site of their organization: their lookup, on every warm request, is built once.
const siteOfAccount = preparedOnce((db) =>
  db
    .select()
    .from(sites)
    .where(and(eq(sites.id, sql.placeholder("siteId")), eq(sites.accountId, sql.placeholder("accountId"))))
    .prepare("site_of_account"),
);

/** The site if it belongs to the caller's account (and is one its key may see); another account's site is "not found". */
export async function getSite(ctx: AccountContext, siteId: number): Promise<SiteRow> {
  const [row] = ctx.siteIds
    ? await ctx.db
        .select()
        .from(sites)
        .where(and(eq(sites.id, siteId), eq(sites.accountId, ctx.accountId), withinSiteLimit(ctx, sites.id)))
    : await siteOfAccount(ctx.db).execute({ siteId, accountId: ctx.accountId });
  if (!row) throw notFound("Site");
  return withVerificationSecret(ctx.db, row);
}

/** Changes how hard the service may warm the site; only the fields given change (null resets to the default). */
export async function updateSite(ctx: AccountContext, siteId: number, input: UpdateSiteInput): Promise<SiteRow> {
  const site = await getSite(ctx, siteId);
  const changes: Partial<typeof sites.$inferInsert> = {};
  if (input.max_concurrency !== undefined) changes.maxConcurrency = input.max_concurrency;
  if (input.max_requests_per_second !== undefined) changes.maxRequestsPerSecond = input.max_requests_per_second;
  if (input.change_boost_id !== undefined) {
    if (input.change_boost_id !== null) {
      const [boost] = await ctx.db
        .select({ id: boosts.id })
        .from(boosts)
        .where(and(eq(boosts.id, input.change_boost_id), eq(boosts.siteId, site.id)));
      if (!boost) throw new InvalidError("change_boost_id: no boost of this site has this id.", [{ field: "change_boost_id", message: "no boost of this site has this id" }]);
    }
    changes.changeBoostId = input.change_boost_id;
  }
  if (!Object.keys(changes).length) return site;
  if (input.max_concurrency != null) assertPlanConcurrency(await planOf(ctx.db, ctx.accountId), input.max_concurrency);
  const [row] = await ctx.db.update(sites).set(changes).where(eq(sites.id, site.id)).returning();
  return row!;
}

/** Deletes the site with its sitemaps, boosts and runs (foreign keys cascade). */
export async function deleteSite(ctx: AccountContext, siteId: number): Promise<void> {
  const deleted = await ctx.db
    .delete(sites)
    .where(and(eq(sites.id, siteId), eq(sites.accountId, ctx.accountId), withinSiteLimit(ctx, sites.id)))
    .returning({ id: sites.id });
  if (!deleted.length) throw notFound("Site");
}
