"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { api } from "@/components/dashboard/api";
import type { Boost, Page, RunListItem } from "@/components/dashboard/types";
import { runsQueryKey } from "@/components/runs/run-history";
import { isActive, pollWhileActive } from "@/components/runs/format";
import { buttonClass } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { BOOST_STATUS_MEANINGS } from "@/lib/core/boost-status";
import { ColumnHeads, td } from "@/components/runs/run-cells";
import { describeSchedule } from "./cron";
import { Can } from "@/components/dashboard/role";
import { TableScroll } from "@/components/ui/table-scroll";

const LIMIT = 100;

export const siteBoostsQueryKey = (siteId: number) => ["boosts", { siteId }] as const;

/** The site's boosts with their status, schedule in words, next run and last run. */
export function SiteBoosts({ siteId }: { siteId: number }) {
  const boosts = useQuery({
    queryKey: siteBoostsQueryKey(siteId),
    queryFn: () => api<Page<Boost>>(`/sites/${siteId}/boosts?limit=${LIMIT}`),
    refetchInterval: (query) => (query.state.data?.data.some((boost) => boost.status === "running") ? 2_000 : false),
  });
  const lastRuns = useQueries({
    queries: (boosts.data?.data ?? []).map((boost) => ({
      queryKey: [...runsQueryKey(boost.id), "last"],
      queryFn: () => api<Page<RunListItem>>(`/runs?boost_id=${boost.id}&limit=1`),
      refetchInterval: (query: { state: { data?: Page<RunListItem> } }) => pollWhileActive(query.state.data?.data.map((run) => run.status)),
    })),
  });
  const newBoost = (
    <Can atLeast="admin">
      <Link href={`/sites/${siteId}/boosts/new`} className={buttonClass("primary")}>
        New boost
      </Link>
    </Can>
  );
  return (
    <Card title="Boosts" actions={newBoost}>
      {boosts.isPending ? (
        <Loading label="Loading boosts…" />
      ) : boosts.isError ? (
        <ErrorNote error={boosts.error} />
      ) : boosts.data.total === 0 ? (
        <EmptyState title="No boost yet">A boost warms the URLs of sitemaps or a CSV file, on demand or on a schedule.</EmptyState>
      ) : (
        <>
          <TableScroll label="Boosts of this site" className="-mx-4 sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="sr-only">Boosts of this site</caption>
              <thead>
                <tr>
                  <ColumnHeads labels={["Boost", "Status", "Schedule", "Next run", "Last run"]} />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {boosts.data.data.map((boost, index) => {
                  const last = lastRuns[index]?.data?.data[0];
                  return (
                    <tr key={boost.id}>
                      <td className={`${td} min-w-[12rem] whitespace-normal`}>
                        <Link href={`/boosts/${boost.id}`} className="font-medium text-brand-700 hover:underline">
                          {boost.name}
                        </Link>
                        <p className="text-xs text-slate-500">
                          {boost.source_type === "csv" ? "CSV file" : `${boost.sitemap_ids.length} sitemap${boost.sitemap_ids.length === 1 ? "" : "s"}`} · {boost.region.join(", ")}
                        </p>
                      </td>
                      <td className={td}>
                        <StatusBadge status={boost.status} meaning={BOOST_STATUS_MEANINGS[boost.status]} />
                      </td>
                      <td className={`${td} whitespace-normal`}>
                        {boost.schedule ? <span title={boost.schedule}>{describeSchedule(boost.schedule) ?? boost.schedule}</span> : <span className="text-slate-500">No schedule</span>}
                      </td>
                      <td className={td}>{boost.status === "paused" && boost.schedule ? <span className="text-amber-700">paused</span> : <LocalTime value={boost.next_run_at} />}</td>
                      <td className={td}>
                        {last ? (
                          <Link href={`/runs/${last.id}`} className="inline-flex items-center gap-2 hover:underline">
                            <StatusBadge status={last.status} />
                            {isActive(last.status) ? null : <LocalTime value={last.finished_at ?? last.created_at} />}
                          </Link>
                        ) : lastRuns[index]?.isPending ? (
                          <span className="text-slate-500">…</span>
                        ) : (
                          <span className="text-slate-500">never</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
          {boosts.data.total > LIMIT ? (
            <p className="mt-2 text-xs text-slate-500">
              The first {LIMIT} of {boosts.data.total} boosts.
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}
