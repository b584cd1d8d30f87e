import { eq } from "drizzle-orm";
import { sites } from "@/drizzle/schema";
import { getQuota } from "@/lib/accounts/quota";
import type { AccountContext } from "@/lib/context";
import type { Database } from "@/lib/db";
import { countCallsByRegion } from "@/lib/runs/calls";
import { selectBoostCalls } from "@/lib/runs/plan";
import { describeSourceError, isSourceError } from "@/lib/sources";
import type { BoostEstimate } from "./schemas";
import { getBoostRow } from "./service";

type BoostRow = Awaited<ReturnType<typeof getBoostRow>>;

/**
 * What a run of the boost would do now, without doing it: the URLs and calls planning would make
 * (the same selection: filters, the caps of a site not validated, the call limit) from the sitemaps'
 * current lists (a stale one is not read again here; the run reads it first) or the CSV file read now.
 */
export async function estimateBoostRow(db: Database, accountId: number, boost: BoostRow): Promise<BoostEstimate> {
  const [site] = await db.select({ domain: sites.domain, validated: sites.validated }).from(sites).where(eq(sites.id, boost.siteId));
  const plan = { regions: boost.regions, variations: boost.variations };
  const quota = await getQuota(db, accountId);
  try {
    const selection = await selectBoostCalls(db, boost, site!, plan, false);
    return {
      urls: selection.urls.length,
      calls: selection.total,
      calls_by_region: countCallsByRegion(selection.urls.length, plan, selection.callLimit),
      quota_remaining: quota.remaining,
      notes: selection.notes,
    };
  } catch (error) {
    if (!isSourceError(error)) throw error;
    // A CSV file that cannot be read now: the run would fail the same way, so say so instead of guessing.
    return { urls: 0, calls: 0, calls_by_region: Object.fromEntries(plan.regions.map((r) => [r, 0])), quota_remaining: quota.remaining, notes: [`the CSV file could not be read: ${describeSourceError(error)}`] };
  }
}

export async function estimateBoost(ctx: AccountContext, boostId: number): Promise<BoostEstimate> {
  return estimateBoostRow(ctx.db, ctx.accountId, await getBoostRow(ctx.db, ctx.accountId, boostId));
}
