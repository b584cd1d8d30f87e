import { and, eq, sql } from "drizzle-orm";
import { accounts, accountUsage } from "@/drizzle/schema";
import { setting, settingDefault } from "@/lib/config";
import type { Database } from "@/lib/db";
import { QuotaExceededError } from "@/lib/core/errors";

/** Calls per account per calendar month (UTC) unless the account has its own figure. */
export const DEFAULT_MONTHLY_CALL_QUOTA = settingDefault("PREHEAT_MONTHLY_CALL_QUOTA");

/** PREHEAT_MONTHLY_CALL_QUOTA, or DEFAULT_MONTHLY_CALL_QUOTA. */
function defaultMonthlyQuota(): number {
  return setting("PREHEAT_MONTHLY_CALL_QUOTA");
}

export function quotaPeriod(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The account's own monthly figure, or the service default. */
async function monthlyLimit(db: Database, accountId: number): Promise<number> {
  const [account] = await db.select({ quota: accounts.monthlyCallQuota }).from(accounts).where(eq(accounts.id, accountId));
  return account?.quota ?? defaultMonthlyQuota();
}

/**
 * Calls counted against the quota: every run created in the period counts its planned calls
 * (account_usage: added when a warm is queued, and when a boost run is planned).
 */
export async function getQuota(db: Database, accountId: number, now = new Date()) {
  const { start, end } = quotaPeriod(now);
  const [limit, [usage]] = await Promise.all([
    monthlyLimit(db, accountId),
    db
      .select({ used: accountUsage.plannedCalls })
      .from(accountUsage)
      .where(and(eq(accountUsage.accountId, accountId), eq(accountUsage.periodStart, start))),
  ]);
  const used = usage?.used ?? 0;
  return { limit, used, remaining: Math.max(0, limit - used), periodStart: start, periodEnd: end };
}

/**
 * Counts `calls` more against the quota of the month `at` falls in (a run's creation): the month's
 * count after it, and the account's own figure read in the same statement (null: the default).
 */
async function countUsage(db: Database, accountId: number, at: Date, calls: number): Promise<{ used: number; ownLimit: number | null }> {
  const [row] = await db
    .insert(accountUsage)
    .values({ accountId, periodStart: quotaPeriod(at).start, plannedCalls: calls })
    .onConflictDoUpdate({ target: [accountUsage.accountId, accountUsage.periodStart], set: { plannedCalls: sql`${accountUsage.plannedCalls} + excluded.planned_calls` } })
    .returning({
      used: accountUsage.plannedCalls,
      ownLimit: sql<number | null>`(select ${accounts.monthlyCallQuota} from ${accounts} where ${accounts.id} = ${accountId})`,
    });
  return row!;
}

/** Counts `calls` more against the quota of the month `at` falls in (a run's creation). */
export async function addUsage(db: Database, accountId: number, at: Date, calls: number): Promise<number> {
  return (await countUsage(db, accountId, at, calls)).used;
}

/**
 * Reserves `calls` of this month's quota inside the caller's transaction, or refuses them. The
 * count is added first and checked after: its row stays locked until the transaction ends, so two
 * warms of one account never both spend the same remainder, and a refusal rolls the count back.
 */
export async function reserveQuota(tx: Database, accountId: number, calls: number) {
  const now = new Date();
  const { used, ownLimit } = await countUsage(tx, accountId, now, calls);
  const limit = ownLimit ?? defaultMonthlyQuota();
  if (used > limit) {
    const remaining = Math.max(0, limit - (used - calls));
    throw new QuotaExceededError(`Monthly call quota exceeded: this request needs ${calls} calls and ${remaining} of ${limit} remain until ${quotaPeriod(now).end.toISOString()}.`);
  }
}
