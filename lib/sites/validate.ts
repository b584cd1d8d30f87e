import { eq } from "drizzle-orm";
import { sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { checkOwnership } from "./ownership";
import type { ValidationMethod } from "./schemas";
import { getSite } from "./service";

export type ValidationResult = { validated: true; already_validated?: true; method: ValidationMethod; validated_at: string } | { validated: false; error: string; code: "ownership_not_proven" };

/**
 * Looks for the ownership proof now (synchronously) and records which method succeeded. A validated
 * site whose recheck missed its proof is checked again too: found, the notice ends.
 */
export async function validateSite(ctx: AccountContext, siteId: number): Promise<ValidationResult> {
  const site = await getSite(ctx, siteId);
  if (site.validated && !site.ownershipLostAt) {
    return {
      validated: true,
      already_validated: true,
      method: (site.validationMethod ?? "html_file") as ValidationMethod,
      validated_at: (site.validatedAt ?? site.createdAt).toISOString(),
    };
  }
  const check = await checkOwnership(site.domain, site.validationToken, site.validationMethod);
  if ("problem" in check) return { validated: false, error: check.problem, code: "ownership_not_proven" };
  const validatedAt = site.validated ? (site.validatedAt ?? site.createdAt) : new Date();
  await ctx.db
    .update(sites)
    .set({ validated: true, validatedAt, validationMethod: check.proof.method, ownershipCheckedAt: new Date(), ownershipLostAt: null, ownershipProblem: null })
    .where(eq(sites.id, site.id));
  return { validated: true, method: check.proof.method, validated_at: validatedAt.toISOString() };
}
