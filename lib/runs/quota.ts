import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { accounts, accountUsage, plans, quotaNotices } from "@/drizzle/schema";
import { setting, settingDefault } from "@/lib/config";
import type { Database } from "@/lib/db";
import type { PreparedPart } from "@/lib/db/insert-select";
import { executePrepared } from "@/lib/db/prepared";
import { idList } from "@/lib/db/recordset";
import { rowsOf } from "@/lib/db/rows";
import { QuotaExceededError } from "@/lib/core/errors";

/** Calls per account per calendar month (UTC) unless the account has its own figure or its plan one. */
export const DEFAULT_MONTHLY_CALL_QUOTA = settingDefault("PREHEAT_MONTHLY_CALL_QUOTA");

/** PREHEAT_MONTHLY_CALL_QUOTA, or DEFAULT_MONTHLY_CALL_QUOTA. */
function defaultMonthlyQuota(): number {
  return setting("PREHEAT_MONTHLY_CALL_QUOTA");
}

/** The account's own figure, else its plan's, else the service default: one expression for every reader. */
const monthlyLimitOf = (accountId: number | Placeholder | SQL, serviceDefault: number | Placeholder) =>
  sql`coalesce((select coalesce(a.monthly_call_quota, p.monthly_calls) from ${accounts} a left join ${plans} p on p.id = a.plan_id where a.id = ${accountId}), ${serviceDefault})::bigint`;

export function quotaPeriod(now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The account's own monthly figure, its plan's, or the service default. */
async function monthlyLimit(db: Database, accountId: number): Promise<number> {
  const [row] = rowsOf<{ quota: number | string }>(await db.execute(sql`select ${monthlyLimitOf(accountId, defaultMonthlyQuota())} as quota`));
  return Number(row!.quota);
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

/** What remains of this month's quota for each of many organizations (the keep-warm tick's pass), in one read. */
export async function remainingQuotas(db: Database, accountIds: readonly number[], now = new Date()): Promise<Map<number, number>> {
  if (!accountIds.length) return new Map();
  const rows = rowsOf<{ id: number; monthly: number | string; used: number | string }>(
    await db.execute(sql`
      select ids.id, ${monthlyLimitOf(sql`ids.id`, defaultMonthlyQuota())} as monthly, coalesce(u.planned_calls, 0) as used
      from ${idList(accountIds)} as ids(id)
      left join ${accountUsage} u on u.account_id = ids.id and u.period_start = ${quotaPeriod(now).start.toISOString()}::timestamptz`),
  );
  return new Map(rows.map((row) => [Number(row.id), Math.max(0, Number(row.monthly) - Number(row.used))]));
}

/** Why `calls` more were refused: the one wording for a warm request and a boost run alike. */
export function quotaExceededMessage(what: "request" | "run", calls: number, quota: { limit: number; remaining: number; periodEnd: Date }): string {
  return `Monthly call quota exceeded: this ${what} needs ${calls} calls and ${quota.remaining} of ${quota.limit} remain until ${quota.periodEnd.toISOString()}.`;
}

/** The lines of a month's quota its owners are told of when the count reaches them (the cron tick e-mails them). */
const QUOTA_NOTICE_PERCENTS = [80, 100] as const;

/**
 * The one count of calls against a month's quota, as one statement: the limit (the account's own
 * figure, its plan's or the service default), the count before, the upsert of the month's row (CTE
 * `granted`, returning the count after), the quota lines it crosses (each crossed by exactly one
 * count: on a server the upsert locks the row) and `dependent`, a statement reading `granted`. When
 * `checked`, calls that do not fit are not counted: `granted` is then empty, and so is all that reads it.
 */
async function countUsage(db: Database, accountId: number, at: Date, calls: number, checked: boolean, dependent: PreparedPart) {
  const result = await executePrepared(db, `${checked ? "reserve_quota" : "add_usage"}:${dependent.shape}`, () => countStatement(checked, dependent.build()), {
    accountId,
    periodStart: quotaPeriod(at).start,
    calls,
    serviceDefault: defaultMonthlyQuota(),
    ...dependent.values,
  });
  const row = rowsOf<Record<string, unknown>>(result)[0]!;
  const used = row.used_after === null ? null : Number(row.used_after);
  return { row, usedBefore: Number(row.used_before), used, limit: Number(row.monthly) };
}

/** countUsage's statement, with placeholders for its values: built once per database and dependent's shape (lib/db/prepared.ts). */
function countStatement(checked: boolean, dependent: SQL): SQL {
  const accountId = sql.placeholder("accountId");
  const calls = sql`${sql.placeholder("calls")}`;
  // Through the column's encoder: the postgres driver sends raw parameters as they are, and a Date is not a string.
  const periodStart = sql.param(sql.placeholder("periodStart"), accountUsage.periodStart);
  const fits = (count: SQL) => (checked ? sql`where ${count} <= (select monthly from quota)` : sql``);
  return sql`
    with quota as (select ${monthlyLimitOf(accountId, sql.placeholder("serviceDefault"))} as monthly),
    before as (
      select coalesce((select ${accountUsage.plannedCalls} from ${accountUsage} where ${accountUsage.accountId} = ${accountId} and ${accountUsage.periodStart} = ${periodStart}), 0) as used
    ),
    granted as (
      insert into ${accountUsage} (account_id, period_start, planned_calls)
      select ${accountId}, ${periodStart}, ${calls} ${fits(calls)}
      on conflict (account_id, period_start) do update set planned_calls = ${accountUsage.plannedCalls} + excluded.planned_calls
      ${fits(sql`${accountUsage.plannedCalls} + excluded.planned_calls`)}
      returning planned_calls as used
    ),
    lines_crossed as (
      insert into ${quotaNotices} (account_id, period_start, percent)
      select ${accountId}, ${periodStart}, line.percent
      from granted, quota, ${idList(QUOTA_NOTICE_PERCENTS)} as line(percent)
      where granted.used - ${calls} < ceil(quota.monthly * line.percent / 100.0) and granted.used >= ceil(quota.monthly * line.percent / 100.0)
      on conflict do nothing
    ),
    dependent as (${dependent})
    select dependent.*, before.used as used_before, quota.monthly, (select used from granted) as used_after
    from quota cross join before left join dependent on true`;
}

/** A dependent statement that writes nothing: a count whatever remains. */
const NOTHING_DEPENDS: PreparedPart = { shape: "nothing", build: () => sql`select 1`, values: {} };

/** Counts `calls` more against the quota of the month `at` falls in (a run's creation), whatever remains. */
export async function addUsage(db: Database, accountId: number, at: Date, calls: number): Promise<number> {
  return (await countUsage(db, accountId, at, calls, false, NOTHING_DEPENDS)).used!;
}

/**
 * A warm or a run refused because this month's quota is spent: its owners hear of the 100 % line,
 * once this month, even when no count reached it exactly. Outside the refused transaction.
 */
export async function noteQuotaSpent(db: Database, accountId: number, now = new Date()): Promise<void> {
  await db
    .insert(quotaNotices)
    .values({ accountId, periodStart: quotaPeriod(now).start, percent: 100 })
    .onConflictDoNothing();
}

/**
 * Reserves `calls` of this month's quota and writes `dependent` in the same statement, or does
 * neither: `dependent` is a data-modifying statement reading the CTE `granted`, which yields a row
 * only when the calls fit (lib/db/insert-select.ts). One statement, so no transaction is held across
 * round trips, and a failure of `dependent` (a unique index) takes the count back with it. On a
 * server, the upsert locks the month's row, so two reservations never both spend one remainder.
 * Answers `dependent`'s returned row, or throws QuotaExceededError when the calls do not fit.
 */
export async function reserveQuotaWith<Row extends Record<string, unknown>>(db: Database, accountId: number, calls: number, dependent: PreparedPart): Promise<Row> {
  const now = new Date();
  const { row, used, usedBefore, limit } = await countUsage(db, accountId, now, calls, true, dependent);
  if (used === null) {
    throw new QuotaExceededError(quotaExceededMessage("request", calls, { limit, remaining: Math.max(0, limit - usedBefore), periodEnd: quotaPeriod(now).end }));
  }
  return row as Row;
}
