import { eq, sql } from "drizzle-orm";
import { accounts, plans } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import { ForbiddenError } from "@/lib/core/errors";
import type { RegionCode } from "@/lib/core/regions";
import type { Database } from "@/lib/db";
import { preparedOnce } from "@/lib/db/prepared";
import { inIds } from "@/lib/db/recordset";

/** The name an organization on no plan sees: the service's configuration, as documented. */
const NO_PLAN_NAME = "default";

/** Every limit a plan sets, in the words of the API (`plan_limit` names one of these). */
const PLAN_LIMITS = ["monthly_calls", "sites", "max_site_concurrency", "regions", "run_results_max", "verification", "run_retention_days"] as const;
type PlanLimitName = (typeof PLAN_LIMITS)[number];

/** What an organization may use. null: no cap (sites, retention) or every region. */
type PlanLimits = {
  monthlyCalls: number;
  maxSites: number | null;
  maxSiteConcurrency: number;
  regions: RegionCode[] | null;
  runResultsMax: number;
  verification: boolean;
  runRetentionDays: number | null;
};

export type PlanRow = typeof plans.$inferSelect;
export type EffectivePlan = { id: number | null; name: string; limits: PlanLimits };

/** The operator's ceiling on any site's concurrency (PREHEAT_SITE_MAX_CONCURRENCY): no plan goes above it. */
export function serviceMaxSiteConcurrency(): number {
  return setting("PREHEAT_SITE_MAX_CONCURRENCY");
}

/** The one rule for a plan's figures: each limit it leaves null is the service's configuration. */
function limitsOf(plan: PlanRow | null | undefined): PlanLimits {
  return {
    monthlyCalls: plan?.monthlyCalls ?? setting("PREHEAT_MONTHLY_CALL_QUOTA"),
    maxSites: plan?.maxSites ?? null,
    maxSiteConcurrency: Math.min(plan?.maxSiteConcurrency ?? Number.POSITIVE_INFINITY, serviceMaxSiteConcurrency()),
    regions: (plan?.regions as RegionCode[] | null | undefined) ?? null,
    runResultsMax: plan?.runResultsMax ?? setting("PREHEAT_RUN_RESULTS_MAX"),
    verification: plan?.verification ?? true,
    runRetentionDays: plan?.runRetentionDays ?? null,
  };
}

export function effectivePlan(plan: PlanRow | null | undefined): EffectivePlan {
  return { id: plan?.id ?? null, name: plan?.name ?? NO_PLAN_NAME, limits: limitsOf(plan) };
}

/** Where an organization stands: its plan, and the operator's suspension (null: not suspended). */
export type Standing = { plan: EffectivePlan; suspension: { since: Date; reason: string | null } | null };

// Read by every warm, run and hook: built once (lib/db/prepared.ts).
const standingStatement = preparedOnce((db) =>
  db
    .select({ plan: plans, suspendedAt: accounts.suspendedAt, reason: accounts.suspensionReason })
    .from(accounts)
    .leftJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, sql.placeholder("accountId")))
    .prepare("standing_of"),
);

type StandingRow = { plan: PlanRow | null; suspendedAt: Date | null; reason: string | null };

function standingFrom(row: StandingRow | undefined): Standing {
  return { plan: effectivePlan(row?.plan), suspension: row?.suspendedAt ? { since: row.suspendedAt, reason: row.reason } : null };
}

/** The organization's plan (no plan: the service's configuration, named "default") and suspension, in one read. */
export async function standingOf(db: Database, accountId: number): Promise<Standing> {
  const [row] = await standingStatement(db).execute({ accountId });
  return standingFrom(row);
}

/** standingOf for many organizations at once (the keep-warm tick's pass), in one read. */
export async function standingsOf(db: Database, accountIds: readonly number[]): Promise<Map<number, Standing>> {
  if (!accountIds.length) return new Map();
  const rows = await db
    .select({ id: accounts.id, plan: plans, suspendedAt: accounts.suspendedAt, reason: accounts.suspensionReason })
    .from(accounts)
    .leftJoin(plans, eq(plans.id, accounts.planId))
    .where(inIds(accounts.id, [...accountIds]));
  return new Map(rows.map((row) => [row.id, standingFrom(row)]));
}

export async function planOf(db: Database, accountId: number): Promise<EffectivePlan> {
  return (await standingOf(db, accountId)).plan;
}

/** The rows of run_results a new run keeps: null when the organization has no plan (PREHEAT_RUN_RESULTS_MAX then, read when recording). */
export function runResultsMaxOf(plan: EffectivePlan): number | null {
  return plan.id === null ? null : plan.limits.runResultsMax;
}

/** A limit of the organization's plan refused the request: 403 `plan_limit`, naming the limit and the plan. */
class PlanLimitError extends ForbiddenError {
  constructor(
    message: string,
    readonly limit: PlanLimitName,
    readonly plan: string,
  ) {
    super(message, undefined, "plan_limit");
  }

  override bodyFields() {
    return { limit: this.limit, plan: this.plan };
  }
}

function refusal(plan: EffectivePlan, limit: PlanLimitName, what: string): PlanLimitError {
  return new PlanLimitError(`${what} The organization's plan (${plan.name}) does not allow it: ask the operator for a plan with more.`, limit, plan.name);
}

/** Refuses regions the plan does not offer. */
export function assertPlanRegions(plan: EffectivePlan, regions: readonly string[]): void {
  const offered = plan.limits.regions;
  if (!offered) return;
  const outside = regions.filter((region) => !offered.includes(region as RegionCode));
  if (outside.length)
    throw refusal(plan, "regions", `The region${outside.length > 1 ? "s" : ""} ${outside.join(", ")} ${outside.length > 1 ? "are" : "is"} not offered (offered: ${offered.join(", ")}).`);
}

/** Refuses verification (`verify`, visitor checks) when the plan does not include it. */
export function assertPlanVerification(plan: EffectivePlan, asked: boolean): void {
  if (asked && !plan.limits.verification) throw refusal(plan, "verification", "Verification is not included.");
}

/** Refuses a site concurrency above the plan's. */
export function assertPlanConcurrency(plan: EffectivePlan, concurrency: number | null | undefined): void {
  if (concurrency != null && concurrency > plan.limits.maxSiteConcurrency)
    throw refusal(plan, "max_site_concurrency", `A site may send at most ${plan.limits.maxSiteConcurrency} calls at once, not ${concurrency}.`);
}

/** Refuses one more site when the organization has as many as its plan allows. */
export function assertPlanSites(plan: EffectivePlan, sitesNow: number): void {
  if (plan.limits.maxSites !== null && sitesNow >= plan.limits.maxSites) throw refusal(plan, "sites", `The organization has ${sitesNow} sites, the most it may have (${plan.limits.maxSites}).`);
}
