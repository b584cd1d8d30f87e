"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page, RunListItem } from "@/components/dashboard/types";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { cacheHitRatio, duration, milliseconds, percent, pollWhileActive, successRate } from "./format";
import { Pager } from "./pager";
import { CallsCell, RunLink, td, tdNum, th, thNum } from "./run-cells";

const LIMIT = 20;

export const runsQueryKey = (boostId: number) => ["runs", { boostId }] as const;

/** A boost's runs, newest first, paged; polled every 2 s only while one of them is in progress. */
export function RunHistory({ boostId }: { boostId: number }) {
  const [offset, setOffset] = useState(0);
  const runs = useQuery({
    queryKey: [...runsQueryKey(boostId), { offset }],
    queryFn: () => api<Page<RunListItem>>(`/runs?boost_id=${boostId}&limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollWhileActive(query.state.data?.data.map((run) => run.status)),
  });
  return (
    <Card title="Runs">
      {runs.isPending ? (
        <Loading label="Loading runs…" />
      ) : runs.isError ? (
        <ErrorNote error={runs.error} />
      ) : runs.data.total === 0 ? (
        <EmptyState title="No runs yet">Use “Run now”, or give the boost a schedule.</EmptyState>
      ) : (
        <>
          <div className="relative -mx-4 overflow-x-auto sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="sr-only">Runs of this boost, newest first</caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>Run</th>
                  <th scope="col" className={th}>Status</th>
                  <th scope="col" className={th}>Started</th>
                  <th scope="col" className={th}>Calls</th>
                  <th scope="col" className={thNum}>Success</th>
                  <th scope="col" className={thNum}>Cache hits</th>
                  <th scope="col" className={thNum}>Avg. time</th>
                  <th scope="col" className={thNum}>Duration</th>
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
                      {run.status_message ? <p className="mt-1 max-w-[14rem] truncate text-xs text-slate-500" title={run.status_message}>{run.status_message}</p> : null}
                    </td>
                    <td className={td}>
                      <LocalTime value={run.started_at ?? run.created_at} />
                    </td>
                    <td className={td}>
                      <CallsCell run={run} />
                    </td>
                    <td className={tdNum}>{percent(successRate(run.summary))}</td>
                    <td className={tdNum}>{percent(cacheHitRatio(run.summary))}</td>
                    <td className={tdNum}>{run.summary.total_calls ? milliseconds(run.summary.average_response_time_ms) : "—"}</td>
                    <td className={tdNum}>{duration(run.started_at, run.finished_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} limit={LIMIT} total={runs.data.total} onChange={setOffset} />
        </>
      )}
    </Card>
  );
}
