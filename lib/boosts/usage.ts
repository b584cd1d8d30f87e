import { and, asc, eq, gte, isNotNull, lt, ne, sql } from "drizzle-orm";
import { boosts, runs, sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { InvalidError } from "@/lib/core/errors";
import { occurrencesBetween } from "@/lib/core/schedule";
import { getQuota } from "@/lib/runs/quota";
import { withinSiteLimit } from "@/lib/sites/site-limit";
import { boostCallsNow } from "./estimate";
import type { Usage } from "./usage-schemas";

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

function periodOf(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const from = query.from ? new Date(`${query.from}T00:00:00Z`) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = query.to ? new Date(`${query.to}T00:00:00Z`) : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw new InvalidError("`from` and `to` must be real dates.", [{ field: "from", message: "Not a date." }]);
  if (to < from) throw new InvalidError("`to` is before `from`.", [{ field: "to", message: "Before from." }]);
  if ((to.getTime() - from.getTime()) / DAY_MS >= MAX_DAYS) throw new InvalidError(`At most ${MAX_DAYS} days at once.`, [{ field: "to", message: `At most ${MAX_DAYS} days after from.` }]);
  return { from, to };
}

/**
 * What the organization (or a site-limited key's sites) spent, day by day, against the monthly quota,
 * and what its schedules will still spend before the month ends. The days count the calls of the
 * runs created each day, the figure the quota counts; runs deleted with their site are in the quota
 * and no longer in any day (`not_in_runs`).
 */
export async function getUsage(ctx: AccountContext, query: { from?: string; to?: string; group_by?: "site" | "boost" }, now = new Date()): Promise<Usage> {
  const { from, to } = periodOf(query, now);
  const end = new Date(to.getTime() + DAY_MS);
  const inPeriod = and(eq(runs.accountId, ctx.accountId), withinSiteLimit(ctx, runs.siteId), gte(runs.createdAt, from), lt(runs.createdAt, end));
  const dayExpression = sql<string>`to_char(${runs.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const perDay = await ctx.db
    .select({ date: dayExpression, calls: sql<number>`coalesce(sum(${runs.plannedCalls}), 0)::int` })
    .from(runs)
    .where(inPeriod)
    .groupBy(dayExpression);
  const byDay = new Map(perDay.map((row) => [row.date, Number(row.calls)]));
  const days: Usage["days"] = [];
  for (let time = from.getTime(); time < end.getTime(); time += DAY_MS) days.push({ date: dayOf(new Date(time)), calls: byDay.get(dayOf(new Date(time))) ?? 0 });

  const quota = await getQuota(ctx.db, ctx.accountId, now);
  const [inMonth] = await ctx.db
    .select({ calls: sql<number>`coalesce(sum(${runs.plannedCalls}), 0)::int` })
    .from(runs)
    .where(and(eq(runs.accountId, ctx.accountId), gte(runs.createdAt, quota.periodStart), lt(runs.createdAt, quota.periodEnd)));

  const scheduled = await ctx.db
    .select({ id: boosts.id, name: boosts.name, schedule: boosts.schedule })
    .from(boosts)
    .innerJoin(sites, eq(sites.id, boosts.siteId))
    .where(and(eq(sites.accountId, ctx.accountId), withinSiteLimit(ctx, boosts.siteId), isNotNull(boosts.schedule), ne(boosts.status, "paused")))
    .orderBy(asc(boosts.id));
  const projected: Usage["projection"]["boosts"] = [];
  for (const boost of scheduled) {
    const runsLeft = occurrencesBetween(boost.schedule!, now, quota.periodEnd);
    if (!runsLeft) continue;
    const callsPerRun = await boostCallsNow(ctx, boost.id);
    projected.push({ boost_id: boost.id, name: boost.name, schedule: boost.schedule!, runs_left: runsLeft, calls_per_run: callsPerRun, calls: runsLeft * callsPerRun });
  }
  const scheduledCalls = projected.reduce((sum, boost) => sum + boost.calls, 0);

  return {
    period: { from: dayOf(from), to: dayOf(to) },
    days,
    total: days.reduce((sum, d) => sum + d.calls, 0),
    ...(query.group_by ? { groups: await groupsOf(ctx, query.group_by, inPeriod) } : {}),
    quota: {
      period_start: quota.periodStart.toISOString(),
      period_end: quota.periodEnd.toISOString(),
      limit: quota.limit,
      used: quota.used,
      remaining: quota.remaining,
      not_in_runs: Math.max(0, quota.used - Number(inMonth?.calls ?? 0)),
    },
    projection: { scheduled_calls: scheduledCalls, projected: quota.used + scheduledCalls, over_quota: quota.used + scheduledCalls > quota.limit, boosts: projected },
  };
}

async function groupsOf(ctx: AccountContext, by: "site" | "boost", inPeriod: ReturnType<typeof and>): Promise<NonNullable<Usage["groups"]>> {
  const calls = sql<number>`coalesce(sum(${runs.plannedCalls}), 0)::int`;
  if (by === "site") {
    const rows = await ctx.db.select({ siteId: runs.siteId, domain: sites.domain, calls }).from(runs).innerJoin(sites, eq(sites.id, runs.siteId)).where(inPeriod).groupBy(runs.siteId, sites.domain);
    return rows.map((row) => ({ site_id: row.siteId, domain: row.domain, boost_id: null, name: null, calls: Number(row.calls) })).sort((a, b) => b.calls - a.calls);
  }
  const rows = await ctx.db
    .select({ siteId: runs.siteId, domain: sites.domain, boostId: runs.boostId, name: boosts.name, calls })
    .from(runs)
    .innerJoin(sites, eq(sites.id, runs.siteId))
    .leftJoin(boosts, eq(boosts.id, runs.boostId))
    .where(inPeriod)
    .groupBy(runs.siteId, sites.domain, runs.boostId, boosts.name);
  return rows.map((row) => ({ site_id: row.siteId, domain: row.domain, boost_id: row.boostId, name: row.name, calls: Number(row.calls) })).sort((a, b) => b.calls - a.calls);
}
