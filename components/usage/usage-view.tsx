"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Usage } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { TableScroll } from "@/components/ui/table-scroll";
import { UsageChart } from "./usage-chart";
import { UsageProjection } from "./usage-projection";

const n = (value: number) => value.toLocaleString("en");
const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const td = "px-3 py-2 align-top text-sm text-slate-700";

/** The days asked of GET /v1/usage: none for this month (its default, up to today), or a from/to (UTC days). */
type Period = { kind: "this" } | { kind: "last" } | { kind: "custom"; from: string; to: string };

const day = (date: Date) => date.toISOString().slice(0, 10);

function lastMonth(now = new Date()): { from: string; to: string } {
  return { from: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))), to: day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0))) };
}

function usagePath(period: Period, groupBy: "site" | "boost"): string {
  const query = new URLSearchParams({ group_by: groupBy });
  const days = period.kind === "last" ? lastMonth() : period.kind === "custom" ? period : null;
  if (days) {
    query.set("from", days.from);
    query.set("to", days.to);
  }
  return `/usage?${query}`;
}

function useUsage(period: Period, groupBy: "site" | "boost") {
  return useQuery({ queryKey: ["usage", period, groupBy], queryFn: () => api<Usage>(usagePath(period, groupBy)), placeholderData: keepPreviousData });
}

type Group = NonNullable<Usage["groups"]>[number];

/** A site's or a boost's calls in the period, most first, each linking to its page. */
function GroupTable({ title, groups, total, by }: { title: string; groups: Group[]; total: number; by: "site" | "boost" }) {
  const label = (group: Group) => {
    if (by === "site") return group.site_id === null ? <span>{group.domain ?? "A deleted site"}</span> : <SiteName group={group} />;
    if (group.boost_id === null) return <span>On-demand warms</span>;
    return (
      <Link href={`/boosts/${group.boost_id}`} className="font-medium text-brand-700 hover:underline">
        {group.name ?? `Boost #${group.boost_id}`}
      </Link>
    );
  };
  return (
    <Card title={title}>
      {groups.length === 0 ? (
        <p className="text-sm text-slate-500">No calls in this period.</p>
      ) : (
        <TableScroll label={title} className="-mx-4 sm:mx-0">
          <table className="min-w-full divide-y divide-slate-200">
            <caption className="sr-only">{title}, most calls first</caption>
            <thead>
              <tr>
                <th scope="col" className={th}>
                  {by === "site" ? "Site" : "Boost"}
                </th>
                {by === "boost" ? (
                  <th scope="col" className={th}>
                    Site
                  </th>
                ) : null}
                <th scope="col" className={`${th} text-right`}>
                  Calls
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Share
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {groups.map((group) => (
                <tr key={`${group.site_id}-${group.boost_id}`}>
                  <td className={td}>{label(group)}</td>
                  {by === "boost" ? (
                    <td className={td}>
                      <SiteName group={group} />
                    </td>
                  ) : null}
                  <td className={`${td} text-right tabular-nums`}>{n(group.calls)}</td>
                  <td className={`${td} text-right tabular-nums text-slate-500`}>{total ? `${Math.round((group.calls / total) * 100)} %` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
}

function SiteName({ group }: { group: Group }) {
  if (group.site_id === null) return <span>{group.domain ?? "—"}</span>;
  return (
    <Link href={`/sites/${group.site_id}`} className="text-brand-700 hover:underline">
      {group.domain ?? `Site #${group.site_id}`}
    </Link>
  );
}

/** This month, last month, or two days: the chart's and the tables' period. The projection is always this month's. */
function PeriodPicker({ period, onChange }: { period: Period; onChange: (period: Period) => void }) {
  const [from, setFrom] = useState(period.kind === "custom" ? period.from : "");
  const [to, setTo] = useState(period.kind === "custom" ? period.to : "");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to) return setProblem("Choose both days.");
    if (to < from) return setProblem("The last day comes before the first.");
    setProblem(null);
    onChange({ kind: "custom", from, to });
  };
  return (
    <div className="space-y-3">
      {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields: a fieldset would bring a legend and a border */}
      <div role="group" aria-label="Period" className="flex flex-wrap gap-2">
        {(
          [
            ["this", "This month"],
            ["last", "Last month"],
          ] as const
        ).map(([kind, label]) => (
          <Button key={kind} variant={period.kind === kind ? "primary" : "secondary"} aria-pressed={period.kind === kind} onClick={() => onChange({ kind })}>
            {label}
          </Button>
        ))}
      </div>
      <form onSubmit={submit} aria-label="Days of your choice" className="flex flex-wrap items-end gap-3">
        <Field label="From">{(props) => <TextInput {...props} type="date" name="from" value={from} onChange={(e) => setFrom(e.target.value)} className="w-auto" />}</Field>
        <Field label="To">{(props) => <TextInput {...props} type="date" name="to" value={to} onChange={(e) => setTo(e.target.value)} className="w-auto" />}</Field>
        <Button type="submit" variant={period.kind === "custom" ? "primary" : "secondary"}>
          Show these days
        </Button>
        {problem ? (
          <p role="alert" className="w-full text-xs font-medium text-red-600">
            {problem}
          </p>
        ) : null}
      </form>
    </div>
  );
}

/** The Usage page: calls per day for a period, split by site and by boost, and this month's projection against the quota. */
export function UsageView() {
  const [period, setPeriod] = useState<Period>({ kind: "this" });
  const bySite = useUsage(period, "site");
  const byBoost = useUsage(period, "boost");
  const usage = bySite.data;
  return (
    <>
      <PageHeader
        title="Usage"
        subtitle="The calls your organization spent, day by day (UTC), against the monthly quota, and what the active schedules will still spend before the month ends. The quota counts the planned calls of each run when it is created: a warm when it is queued, a boost run when it is planned. A boost’s estimate shows what its schedule costs a month before you save it."
      />
      <div className="space-y-6">
        <Card title="Calls per day">
          <div className="space-y-5">
            <PeriodPicker period={period} onChange={setPeriod} />
            <ErrorNote error={bySite.error} />
            {bySite.isPending ? (
              <Loading label="Loading the usage…" />
            ) : !usage ? null : usage.total === 0 ? (
              <EmptyState title="No calls in this period">
                Calls show here as soon as a warm is queued or a boost run is planned. Start one from a{" "}
                <Link href="/sites" className="text-brand-700 hover:underline">
                  site’s page
                </Link>
                .
              </EmptyState>
            ) : (
              <UsageChart days={usage.days} total={usage.total} />
            )}
          </div>
        </Card>
        {usage && usage.total > 0 ? (
          <div className="grid gap-6 lg:grid-cols-2">
            <GroupTable title="By site" groups={usage.groups ?? []} total={usage.total} by="site" />
            {byBoost.data ? <GroupTable title="By boost" groups={byBoost.data.groups ?? []} total={byBoost.data.total} by="boost" /> : <ErrorNote error={byBoost.error} />}
          </div>
        ) : null}
        {usage ? <UsageProjection usage={usage} /> : null}
      </div>
    </>
  );
}
