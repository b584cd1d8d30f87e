"use client";

import { RunTriggerLine } from "./run-trigger";
import type { WarmRun } from "@/components/dashboard/types";
import { EmptyState } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { cacheHitRatio, percent, successRate } from "./format";
import { CallsCell, ColumnHeads, RunLink, td, tdNum } from "./run-cells";
import { RunsTableCard } from "./runs-table-card";

const warmRunsQueryKey = (siteId: number) => ["warm-runs", { siteId }] as const;

/** The site's on-demand warm runs, newest first; polled every 2 s only while one is in progress. */
export function SiteWarmRuns({ siteId }: { siteId: number }) {
  return (
    <RunsTableCard<WarmRun>
      title="On-demand warm runs"
      queryKey={warmRunsQueryKey(siteId)}
      path={(limit, offset) => `/sites/${siteId}/warm-runs?limit=${limit}&offset=${offset}`}
      limit={10}
      noun="warm runs"
      caption="On-demand warm runs, newest first"
      empty={<EmptyState title="No warm run yet">“Warm now” warms a list of URLs once, without a boost.</EmptyState>}
      head={<ColumnHeads labels={["Run", "Status", "Queued", "URLs", "Regions", "Calls", "Success", "Cache hits"]} numeric={["URLs", "Success", "Cache hits"]} />}
      row={(run) => (
        <tr key={run.id}>
          <td className={td}>
            <RunLink run={run} />
          </td>
          <td className={td}>
            <StatusBadge status={run.status} />
          </td>
          <td className={td}>
            <LocalTime value={run.created_at} />
            <RunTriggerLine trigger={run.triggered_by} />
          </td>
          <td className={tdNum}>{run.url_count.toLocaleString("en")}</td>
          <td className={td}>{run.run_region.join(", ")}</td>
          <td className={td}>
            <CallsCell run={run} />
          </td>
          <td className={tdNum}>{percent(successRate(run.summary))}</td>
          <td className={tdNum}>{percent(cacheHitRatio(run.summary))}</td>
        </tr>
      )}
    />
  );
}
