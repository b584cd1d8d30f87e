import { and, eq, sql } from "drizzle-orm";
import { accounts, accountUsage, plans, quotaNotices } from "@/drizzle/schema";
import { setting, settingDefault } from "@/lib/config";
import type { Database } from "@/lib/db";
import { QuotaExceededError } from "@/lib/core/errors";

/** Calls per account per calendar month (UTC) unless the account has its own figure or its plan one. */
export const DEFAULT_MONTHLY_CALL_QUOTA = settingDefault("PREHEAT_MONTHLY_CALL_QUOTA");

/** PREHEAT_MONTHLY_CALL_QUOTA, or DEFAULT_MONTHLY_CALL_QUOTA. */
function defaultMonthlyQuota(): number {
  return setting("PREHEAT_MONTHLY_CALL_QUOTA");
}

/**
 * The account's own figure, else its plan's, else null (the service default): one expression for
 * every reader. Aliased: inside a RETURNING clause, drizzle names columns without their table.
 */
const ownMonthlyLimit = (accountId: number) =>
  sql<number | null>`(select coalesce(a.monthly_call_quota, p.monthly_calls) from ${accounts} a left join ${plans} p on p.id = a.plan_id where a.id = ${accountId})`;

export function quotaPeriod(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The account's own monthly figure, its plan's, or the service default. */
async function monthlyLimit(db: Database, accountId: number): Promise<number> {
  const [row] = await db
    .select({ quota: ownMonthlyLimit(accountId) })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.quota ?? defaultMonthlyQuota();
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

/** The lines of a month's quota its owners are told of when the count reaches them (the cron tick e-mails them). */
const QUOTA_NOTICE_PERCENTS = [80, 100] as const;

/** Records, once a month each, the quota lines reached: in the caller's transaction, so a refused count records none. */
async function noteQuotaLines(db: Database, accountId: number, periodStart: Date, percents: readonly number[]): Promise<void> {
  if (!percents.length) return;
  await db
    .insert(quotaNotices)
    .values(percents.map((percent) => ({ accountId, periodStart, percent })))
    .onConflictDoNothing();
}

/** The lines between the count before and after: each is crossed by exactly one count, its row being locked meanwhile. */
function linesCrossed(before: number, after: number, limit: number): number[] {
  return QUOTA_NOTICE_PERCENTS.filter((percent) => {
    const line = Math.ceil((limit * percent) / 100);
    return before < line && after >= line;
  });
}

/**
 * Counts `calls` more against the quota of the month `at` falls in (a run's creation): the month's
 * count after it and its limit (the account's own figure or its plan's, read in the same statement).
 */
async function countUsage(db: Database, accountId: number, at: Date, calls: number): Promise<{ used: number; limit: number }> {
  const periodStart = quotaPeriod(at).start;
  const [row] = await db
    .insert(accountUsage)
    .values({ accountId, periodStart, plannedCalls: calls })
    .onConflictDoUpdate({ target: [accountUsage.accountId, accountUsage.periodStart], set: { plannedCalls: sql`${accountUsage.plannedCalls} + excluded.planned_calls` } })
    .returning({
      used: accountUsage.plannedCalls,
      ownLimit: ownMonthlyLimit(accountId),
    });
  const limit = row!.ownLimit ?? defaultMonthlyQuota();
  await noteQuotaLines(db, accountId, periodStart, linesCrossed(row!.used - calls, row!.used, limit));
  return { used: row!.used, limit };
}

/** Counts `calls` more against the quota of the month `at` falls in (a run's creation). */
export async function addUsage(db: Database, accountId: number, at: Date, calls: number): Promise<number> {
  return (await countUsage(db, accountId, at, calls)).used;
}

/**
 * A warm or a run refused because this month's quota is spent: its owners hear of the 100 % line,
 * once this month, even when no count reached it exactly. Outside the refused transaction.
 */
export async function noteQuotaSpent(db: Database, accountId: number, now = new Date()): Promise<void> {
  await noteQuotaLines(db, accountId, quotaPeriod(now).start, [100]);
}

/**
 * Reserves `calls` of this month's quota inside the caller's transaction, or refuses them. The
 * count is added first and checked after: its row stays locked until the transaction ends, so two
 * warms of one account never both spend the same remainder, and a refusal rolls the count back.
 */
export async function reserveQuota(tx: Database, accountId: number, calls: number) {
  const now = new Date();
  const { used, limit } = await countUsage(tx, accountId, now, calls);
  if (used > limit) {
    const remaining = Math.max(0, limit - (used - calls));
    throw new QuotaExceededError(`Monthly call quota exceeded: this request needs ${calls} calls and ${remaining} of ${limit} remain until ${quotaPeriod(now).end.toISOString()}.`);
  }
}
