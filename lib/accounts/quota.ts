import { and, eq, gte, sql } from "drizzle-orm";
import { accounts, runs } from "@/drizzle/schema";
import { setting, settingDefault } from "@/lib/config";
import type { Database } from "@/lib/db";
import { QuotaExceededError } from "@/lib/errors";

/** Calls per account per calendar month (UTC) unless the account has its own figure. */
export const DEFAULT_MONTHLY_CALL_QUOTA = settingDefault("PREHEAT_MONTHLY_CALL_QUOTA");

/** PREHEAT_MONTHLY_CALL_QUOTA, or DEFAULT_MONTHLY_CALL_QUOTA. */
export function defaultMonthlyQuota(): number {
  return setting("PREHEAT_MONTHLY_CALL_QUOTA");
}

export function quotaPeriod(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * Calls counted against the quota: every run created in the period counts its planned calls
 * (reserved when it is queued, so two warms cannot both spend the same remainder).
 */
export async function getQuota(db: Database, accountId: number, now = new Date()) {
  const { start, end } = quotaPeriod(now);
  const [account] = await db.select({ quota: accounts.monthlyCallQuota }).from(accounts).where(eq(accounts.id, accountId));
  const [usage] = await db
    .select({ used: sql<string>`coalesce(sum(${runs.plannedCalls}), 0)` })
    .from(runs)
    .where(and(eq(runs.accountId, accountId), gte(runs.createdAt, start)));
  const limit = account?.quota ?? defaultMonthlyQuota();
  const used = Number(usage?.used ?? 0);
  return { limit, used, remaining: Math.max(0, limit - used), periodStart: start, periodEnd: end };
}

export async function assertQuotaCovers(db: Database, accountId: number, calls: number) {
  const quota = await getQuota(db, accountId);
  if (calls > quota.remaining) {
    throw new QuotaExceededError(`Monthly call quota exceeded: this request needs ${calls} calls and ${quota.remaining} of ${quota.limit} remain until ${quota.periodEnd.toISOString()}.`);
  }
}
