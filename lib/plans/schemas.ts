import { z } from "zod";
import { regionCodeOutput } from "@/lib/core/regions";
import { type EffectivePlan, serviceMaxSiteConcurrency } from "./limits";

const planLimitsSchema = z
  .object({
    monthly_calls: z.number().int().meta({ description: "Calls per calendar month (UTC): the quota." }),
    sites: z.number().int().nullable().meta({ description: "Sites the organization may register; null: no cap." }),
    max_site_concurrency: z.number().int().meta({ description: "The highest `max_concurrency` a site may set." }),
    regions: z.array(regionCodeOutput).nullable().meta({ description: "The regions boosts and warms may use; null: every region." }),
    run_results_max: z.number().int().meta({ description: "Rows of a run's results (its calls, hits included, the first ones) kept per run." }),
    verification: z.boolean().meta({ description: 'Whether runs may verify (`verify`: true or "visitors").' }),
    run_retention_days: z.number().int().nullable().meta({ description: "Runs older than this many days are deleted; null: kept until their site or boost is." }),
  })
  .meta({ id: "PlanLimits" });

export const planSchema = z
  .object({
    id: z.number().int().nullable().meta({ description: "null: no plan, the service's configuration (named `default`)." }),
    name: z.string(),
    limits: planLimitsSchema,
  })
  .meta({
    id: "Plan",
    description: "What the organization may use, set by the operator. A request beyond a limit is refused with 403 `plan_limit`, which names the limit and the plan.",
  });

export type PlanView = z.infer<typeof planSchema>;

export function toPlanView(plan: EffectivePlan): PlanView {
  const { limits } = plan;
  return {
    id: plan.id,
    name: plan.name,
    limits: {
      monthly_calls: limits.monthlyCalls,
      sites: limits.maxSites,
      max_site_concurrency: limits.maxSiteConcurrency,
      regions: limits.regions,
      run_results_max: limits.runResultsMax,
      verification: limits.verification,
      run_retention_days: limits.runRetentionDays,
    },
  };
}

const positive = (what: string) => z.number().int(`${what} must be a whole number`).positive(`${what} must be at least 1`);

/**
 * A plan as the operator writes it (CLI and console). Each limit left out or null is the service's
 * configuration; the highest concurrency is bounded by PREHEAT_SITE_MAX_CONCURRENCY.
 */
export const planInputSchema = z.object({
  name: z.string().trim().min(1, "name is required").max(60, "name: at most 60 characters"),
  monthly_calls: positive("monthly_calls").nullable().optional(),
  sites: z.number().int("sites must be a whole number").min(0, "sites must be 0 or more").nullable().optional(),
  max_site_concurrency: positive("max_site_concurrency")
    .refine((value) => value <= serviceMaxSiteConcurrency(), { message: "max_site_concurrency may not exceed the service's PREHEAT_SITE_MAX_CONCURRENCY" })
    .nullable()
    .optional(),
  regions: z.array(regionCodeOutput).min(1, "regions: at least one, or null for every region").nullable().optional(),
  run_results_max: positive("run_results_max").nullable().optional(),
  verification: z.boolean().optional(),
  run_retention_days: positive("run_retention_days").nullable().optional(),
});
export type PlanInput = z.infer<typeof planInputSchema>;
export const planUpdateSchema = planInputSchema.partial();
export type PlanUpdate = z.infer<typeof planUpdateSchema>;

/** Why the operator suspends an organization: its members read it. */
export const suspensionInputSchema = z.object({
  reason: z.string().trim().min(1, "reason: a sentence the organization's members will read").max(500, "reason: at most 500 characters"),
  /** Its owners and admins may not go on in a new organization of their own while it is suspended. */
  block_new_organizations: z.boolean().optional(),
});
export type SuspensionInput = z.output<typeof suspensionInputSchema>;
