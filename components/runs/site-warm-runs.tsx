"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page, WarmRun } from "@/components/dashboard/types";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { cacheHitRatio, percent, pollWhileActive, successRate } from "./format";
import { Pager } from "./pager";
import { CallsCell, RunLink, td, tdNum, th, thNum } from "./run-cells";

const LIMIT = 10;

export const warmRunsQueryKey = (siteId: number) => ["warm-runs", { siteId }] as const;

/** The site's on-demand warm runs, newest first; polled every 2 s only while one is in progress. */
export function SiteWarmRuns({ siteId }: { siteId: number }) {
  const [offset, setOffset] = useState(0);
  const runs = useQuery({
    queryKey: [...warmRunsQueryKey(siteId), { offset }],
    queryFn: () => api<Page<WarmRun>>(`/sites/${siteId}/warm-runs?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollWhileActive(query.state.data?.data.map((run) => run.status)),
  });
  return (
    <Card title="On-demand warm runs">
      {runs.isPending ? (
        <Loading label="Loading warm runs…" />
      ) : runs.isError ? (
        <ErrorNote error={runs.error} />
      ) : runs.data.total === 0 ? (
        <EmptyState title="No warm run yet">“Warm now” warms a list of URLs once, without a boost.</EmptyState>
      ) : (
        <>
          <div className="relative -mx-4 overflow-x-auto sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="sr-only">On-demand warm runs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>Run</th>
                  <th scope="col" className={th}>Status</th>
                  <th scope="col" className={th}>Queued</th>
                  <th scope="col" className={thNum}>URLs</th>
                  <th scope="col" className={th}>Regions</th>
                  <th scope="col" className={th}>Calls</th>
                  <th scope="col" className={thNum}>Success</th>
                  <th scope="col" className={thNum}>Cache hits</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {runs.data.data.map((run) => (
                  <tr key={run.id}>
                    <td className={td}>
                      <RunLink id={run.id} />
                    </td>
                    <td className={td}>
                      <StatusBadge status={run.status} />
                    </td>
                    <td className={td}>
                      <LocalTime value={run.created_at} />
                    </td>
                    <td className={tdNum}>{run.url_count.toLocaleString("en")}</td>
                    <td className={td}>{run.run_region.join(", ")}</td>
                    <td className={td}>
                      <CallsCell run={run} />
                    </td>
                    <td className={tdNum}>{percent(successRate(run.summary))}</td>
                    <td className={tdNum}>{percent(cacheHitRatio(run.summary))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} limit={LIMIT} total={runs.data.total} onChange={setOffset} noun="warm runs" />
        </>
      )}
    </Card>
  );
}
