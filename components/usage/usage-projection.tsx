import Link from "next/link";
import { describeSchedule } from "@/components/boosts/cron";
import type { Usage } from "@/components/dashboard/types";
import { Card } from "@/components/ui/card";
import { TableScroll } from "@/components/ui/table-scroll";
import { quotaShare } from "./quota-share";

const n = (value: number) => value.toLocaleString("en");
const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const td = "px-3 py-2 align-top text-sm text-slate-700";

/** "December 1": the day the quota starts again. */
const resetDay = (iso: string) => new Date(iso).toLocaleDateString("en", { timeZone: "UTC", month: "long", day: "numeric" });

/**
 * Used, scheduled and quota on one scale: the calls counted so far, what the schedules add before
 * the month ends, and a mark where the quota stands.
 */
function QuotaBar({ used, projected, limit }: { used: number; projected: number; limit: number }) {
  const scale = Math.max(projected, limit, 1) * 1.05;
  const at = (value: number) => `${Math.min(100, (value / scale) * 100)}%`;
  // The quota's label stays inside the bar: left of its mark near the right end, right of it near the left end.
  const mark = (limit / scale) * 100;
  const labelSide = mark > 80 ? "right-0" : mark < 20 ? "left-0" : "left-0 -translate-x-1/2";
  return (
    <div aria-hidden className="pt-5">
      <div className="relative h-4 w-full rounded-full bg-slate-100">
        <div className="absolute inset-y-0 left-0 rounded-l-full bg-orange-300" style={{ width: at(projected) }} />
        <div className="absolute inset-y-0 left-0 rounded-l-full bg-brand-600" style={{ width: at(used) }} />
        <div className="absolute -inset-y-1.5 w-0.5 bg-slate-900" style={{ left: at(limit) }}>
          <span className={`absolute bottom-full mb-0.5 whitespace-nowrap text-xs font-medium text-slate-900 ${labelSide}`}>quota {n(limit)}</span>
        </div>
      </div>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1">
          <span className="size-2.5 rounded-sm bg-brand-600" /> used so far
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="size-2.5 rounded-sm bg-orange-300" /> the schedules until the month ends
        </span>
      </p>
    </div>
  );
}

/** This month against the quota: used so far, what the active schedules will add, and a warning when that passes the quota. */
export function UsageProjection({ usage }: { usage: Usage }) {
  const { quota, projection } = usage;
  const share = quotaShare(projection.projected, quota.limit);
  return (
    <Card title="This month against the quota">
      <div data-testid="usage-projection" className="space-y-4 text-sm text-slate-700">
        <dl className="grid gap-3 sm:grid-cols-3">
          {[
            ["Used so far", quota.used],
            ["Projected at the end of the month", projection.projected],
            ["Monthly quota", quota.limit],
          ].map(([label, value]) => (
            <div key={label} className="rounded-md bg-slate-50 px-3 py-2">
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums text-slate-900">{n(Number(value))}</dd>
            </div>
          ))}
        </dl>
        <QuotaBar used={quota.used} projected={projection.projected} limit={quota.limit} />
        {projection.over_quota ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 font-medium text-red-800">
            At this pace the month ends at {n(projection.projected)} calls: {share.words} your quota of {n(quota.limit)}. Once it is spent, runs needing more than what is left fail (a warm is refused)
            until {resetDay(quota.period_end)}: pause a schedule or make it less frequent.
          </p>
        ) : (
          <p>
            At this pace the month ends at {n(projection.projected)} calls: {share.words} your quota of {n(quota.limit)}. {n(quota.remaining)} calls are left until {resetDay(quota.period_end)}.
          </p>
        )}
        <p className="text-xs text-slate-500">
          The quota counts the planned calls of every run created this month (UTC): a warm when it is queued, a boost run when it is planned, whether or not each call is then made. The projection adds
          each active schedule’s remaining runs this month × the calls a run of it would make now: an upper bound, since a schedule skips its turn while its last run is still going.
          {quota.not_in_runs > 0
            ? ` The ${n(quota.used)} calls used so far include ${n(quota.not_in_runs)} calls of runs deleted with their site: the quota keeps them, the chart no longer shows them.`
            : ""}
        </p>
        {projection.boosts.length ? (
          <TableScroll label="What the schedules will still spend this month" className="-mx-4 sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="mb-1 text-left text-sm font-medium text-slate-800">What the schedules will still spend this month</caption>
              <thead>
                <tr>
                  {["Boost", "Schedule", "Runs left", "Calls a run", "Calls"].map((label) => (
                    <th key={label} scope="col" className={th}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {projection.boosts.map((boost) => (
                  <tr key={boost.boost_id}>
                    <td className={td}>
                      <Link href={`/boosts/${boost.boost_id}`} className="font-medium text-brand-700 hover:underline">
                        {boost.name}
                      </Link>
                    </td>
                    <td className={td}>
                      <span className="font-mono text-xs">{boost.schedule}</span>
                      <span className="block text-xs text-slate-500">{describeSchedule(boost.schedule)}</span>
                    </td>
                    <td className={`${td} tabular-nums`}>{n(boost.runs_left)}</td>
                    <td className={`${td} tabular-nums`}>{n(boost.calls_per_run)}</td>
                    <td className={`${td} tabular-nums font-medium`}>{n(boost.calls)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <p className="text-slate-500">No active schedule: nothing more is planned this month unless a run is started.</p>
        )}
      </div>
    </Card>
  );
}
