import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, apiKeys, sites, users } from "@/drizzle/schema";
import { timestamp } from "@/lib/core/primitives";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { scopeSchema } from "@/lib/auth/scopes";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { notFound } from "@/lib/core/errors";
import { type RegionCode, regionSchema } from "@/lib/core/regions";
import { regionsWithEgress } from "@/lib/warm/workers";
import { getQuota } from "@/lib/runs/quota";
import { type EffectivePlan, planOf } from "@/lib/plans/limits";
import { planSchema, toPlanView } from "@/lib/plans/schemas";
import { withinSiteLimit } from "@/lib/sites/site-limit";

export const meSchema = z
  .object({
    account: z.object({ id: z.number().int(), name: z.string(), created_at: timestamp }),
    api_key: z.object({
      id: z.number().int(),
      name: z.string(),
      prefix: z.string(),
      expires_at: timestamp.nullable(),
      site_ids: z.array(z.number().int()).nullable().meta({
        description:
          "The sites the key is limited to: it sees only them (any other id answers 404) and cannot register a site nor manage webhooks (403 `site_limited_key`). null: every site of the organization.",
      }),
      created_by: z.string().nullable().meta({ description: "The e-mail address of the member who created the key; null for a key made by the operator CLI or whose creator has left." }),
    }),
    sites: z
      .array(z.object({ id: z.number().int(), domain: z.string() }))
      .nullable()
      .meta({ description: "For a key limited to some sites, those of its sites that still exist, by id. null for a key that sees every site of the organization (list them with GET /v1/sites)." }),
    scopes: z.array(scopeSchema).meta({ description: "The scopes of the key that made this request." }),
    regions: z.array(regionSchema).meta({ description: "Regions available to the caller: those its plan offers." }),
    plan: planSchema,
    quota: z
      .object({
        period: z.literal("month"),
        limit: z.number().int().meta({ description: "Calls per calendar month (UTC)." }),
        used: z
          .number()
          .int()
          .meta({ description: "Calls of the runs created this period: a warm's planned calls are reserved when it is queued, a boost run's when it is planned. Deleting a site gives none back." }),
        remaining: z.number().int(),
        period_start: timestamp,
        period_end: timestamp,
      })
      .meta({ id: "Quota" }),
  })
  .meta({ id: "Me" });

/** Every region the organization's plan offers, with how its calls leave now: GET /v1/me's and the dashboard's region choices. */
export async function regionsOffered(db: Database, accountId: number) {
  const [regions, plan] = await Promise.all([regionsWithEgress(db), planOf(db, accountId)]);
  return offeredBy(plan, regions);
}

function offeredBy<R extends { code: string }>(plan: EffectivePlan, regions: R[]): R[] {
  return regions.filter((region) => plan.limits.regions?.includes(region.code as RegionCode) ?? true);
}

export async function getMe(ctx: AccountContext, principal: ApiKeyPrincipal): Promise<z.infer<typeof meSchema>> {
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, ctx.accountId));
  if (!account) throw notFound("Account");
  const [quota, allRegions, plan, [creator], limitedSites] = await Promise.all([
    getQuota(ctx.db, ctx.accountId),
    regionsWithEgress(ctx.db),
    planOf(ctx.db, ctx.accountId),
    ctx.db.select({ email: users.email }).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.createdByUserId)).where(eq(apiKeys.id, principal.keyId)),
    principal.siteIds
      ? ctx.db
          .select({ id: sites.id, domain: sites.domain })
          .from(sites)
          .where(and(eq(sites.accountId, ctx.accountId), withinSiteLimit(principal, sites.id)))
          .orderBy(asc(sites.id))
      : null,
  ]);
  return {
    account: { id: account.id, name: account.name, created_at: account.createdAt.toISOString() },
    api_key: {
      id: principal.keyId,
      name: principal.name,
      prefix: principal.prefix,
      expires_at: principal.expiresAt?.toISOString() ?? null,
      site_ids: principal.siteIds,
      created_by: creator?.email ?? null,
    },
    sites: limitedSites,
    scopes: principal.scopes,
    regions: offeredBy(plan, allRegions),
    plan: toPlanView(plan),
    quota: {
      period: "month",
      limit: quota.limit,
      used: quota.used,
      remaining: quota.remaining,
      period_start: quota.periodStart.toISOString(),
      period_end: quota.periodEnd.toISOString(),
    },
  };
}
