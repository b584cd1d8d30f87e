"use client";

import { RunTriggerLine } from "./run-trigger";
import type { RunListItem } from "@/components/dashboard/types";
import { Can } from "@/components/dashboard/role";
import { EmptyState } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { cacheHitRatio, duration, milliseconds, percent, successRate } from "./format";
import { CallsCell, ColumnHeads, RunLink, td, tdNum } from "./run-cells";
import { RunsTableCard, runsPageQuery } from "./runs-table-card";

export const runsQueryKey = (boostId: number) => ["runs", { boostId }] as const;

const RUNS_PER_PAGE = 20;
const boostRunsPath = (boostId: number) => (limit: number, offset: number) => `/runs?boost_id=${boostId}&limit=${limit}&offset=${offset}`;

/** The table's first page, newest run first: the boost's status reads its newest run from it. */
export const newestRunsQuery = (boostId: number) => runsPageQuery<RunListItem>(runsQueryKey(boostId), boostRunsPath(boostId), RUNS_PER_PAGE, 0);

/** A boost's runs, newest first, paged; polled every 2 s only while one of them is in progress. */
export function RunHistory({ boostId }: { boostId: number }) {
  return (
    <RunsTableCard<RunListItem>
      title="Runs"
      queryKey={runsQueryKey(boostId)}
      path={boostRunsPath(boostId)}
      limit={RUNS_PER_PAGE}
      noun="runs"
      caption="Runs of this boost, newest first"
      empty={
        <EmptyState title="No runs yet">
          <Can atLeast="member" otherwise="Runs start on the boost's schedule, or when a member of the organization starts one.">
            Use “Run now”, or give the boost a schedule.
          </Can>
        </EmptyState>
      }
      head={<ColumnHeads labels={["Run", "Status", "Started", "Calls", "Success", "Cache hits", "Avg. time", "Duration"]} numeric={["Success", "Cache hits", "Avg. time", "Duration"]} />}
      row={(run) => (
        <tr key={run.id}>
          <td className={td}>
            <RunLink run={run} />
          </td>
          <td className={td}>
            <StatusBadge status={run.status} />
            {run.status_message ? (
              <p className="mt-1 max-w-[14rem] truncate text-xs text-slate-500" title={run.status_message}>
                {run.status_message}
              </p>
            ) : null}
          </td>
          <td className={td}>
            <LocalTime value={run.started_at ?? run.created_at} />
            <RunTriggerLine trigger={run.triggered_by} />
          </td>
          <td className={td}>
            <CallsCell run={run} />
          </td>
          <td className={tdNum}>{percent(successRate(run.summary))}</td>
          <td className={tdNum}>{percent(cacheHitRatio(run.summary))}</td>
          <td className={tdNum}>{run.summary.total_calls ? milliseconds(run.summary.average_response_time_ms) : "—"}</td>
          <td className={tdNum}>{duration(run.started_at, run.finished_at)}</td>
        </tr>
      )}
    />
  );
}
