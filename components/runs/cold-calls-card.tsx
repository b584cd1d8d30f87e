"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, DASHBOARD_HEADER } from "@/components/dashboard/api";
import type { RunDetail } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import type { RunResult } from "@/lib/runs/schemas";
import { NOT_CACHED_ADVICE, NOT_CACHED_REASONS, type NotCachedReason } from "@/lib/core/not-cached";
import { TableScroll } from "@/components/ui/table-scroll";
import { isActive, milliseconds } from "./format";
import { Pager } from "./pager";
import { ColumnHeads, td, tdNum } from "./run-cells";

type ResultPage = { data: RunResult[]; total: number; limit: number; offset: number; truncated: boolean };
const LIMIT = 25;

function resultsPath(runId: number, filters: { reason: string; region: string }, extra: Record<string, string>): string {
  const query = new URLSearchParams({ ...extra, ...(filters.reason ? { reason: filters.reason } : {}), ...(filters.region ? { region: filters.region } : {}) });
  return `/runs/${runId}/results?${query}`;
}

/** Downloads every stored row that matches as CSV: fetched with the dashboard header (a plain link cannot send it), then saved. */
async function downloadCsv(runId: number, filters: { reason: string; region: string }): Promise<void> {
  const response = await fetch(`/api/v1${resultsPath(runId, filters, { format: "csv" })}`, { headers: { [DASHBOARD_HEADER]: "1" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`The download failed (${response.status}).`);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = `run-${runId}-results.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The calls that did not end as a cache hit, URL by URL, filtered by reason and region, with a CSV download. */
export function ColdCallsCard({ run }: { run: RunDetail }) {
  const [filters, setFilters] = useState({ reason: "", region: "" });
  const [offset, setOffset] = useState(0);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const { data, error } = useQuery({
    queryKey: ["run-results", run.id, filters, offset],
    queryFn: () => api<ResultPage>(resultsPath(run.id, filters, { limit: String(LIMIT), offset: String(offset) })),
    refetchInterval: isActive(run.status) ? 5_000 : false,
  });
  const choose = (change: Partial<typeof filters>) => {
    setFilters({ ...filters, ...change });
    setOffset(0);
  };
  const reasons = NOT_CACHED_REASONS.filter((reason) => (run.summary.not_cached[reason] ?? 0) > 0);
  return (
    <Card title="Calls that stayed cold" className="min-w-0">
      <div className="mb-3 flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-slate-600">Reason</span>
          <select className={inputClass} value={filters.reason} onChange={(e) => choose({ reason: e.target.value })}>
            <option value="">All reasons</option>
            {reasons.map((reason) => (
              <option key={reason} value={reason}>
                {NOT_CACHED_ADVICE[reason].title}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-slate-600">Region</span>
          <select className={inputClass} value={filters.region} onChange={(e) => choose({ region: e.target.value })}>
            <option value="">All regions</option>
            {run.region.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
        <Button variant="secondary" onClick={() => downloadCsv(run.id, filters).then(() => setDownloadError(null), setDownloadError)}>
          Download CSV
        </Button>
      </div>
      <ErrorNote error={error ?? downloadError} />
      {data?.truncated ? (
        <p className="mb-2 text-sm text-amber-800">This run had more calls that stayed cold than it keeps: the first {data.total.toLocaleString("en")} in call order are listed.</p>
      ) : null}
      {!data ? null : data.data.length === 0 ? (
        <EmptyState title={filters.reason || filters.region ? "No call matches" : "No call stayed cold"} />
      ) : (
        <>
          <TableScroll label="Calls that stayed cold" className="-mx-4 sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200" data-testid="cold-calls">
              <thead>
                <tr>
                  <ColumnHeads labels={["URL", "Reason", "Variant", "Status", "Cache", "PoP", "Time"]} numeric={["Status", "Time"]} />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.data.map((row, index) => (
                  <tr key={`${offset}-${index}`}>
                    <td className={`${td} max-w-md truncate font-mono text-xs`} title={row.url}>
                      {row.url}
                    </td>
                    <td className={td}>{NOT_CACHED_ADVICE[row.reason as NotCachedReason].title}</td>
                    <td className={td}>{[row.region, row.user_agent, row.language].filter(Boolean).join(" · ")}</td>
                    <td className={tdNum}>{row.status_code ?? "—"}</td>
                    <td className={td}>{[row.cache_status, row.verified_cache_status ? `then ${row.verified_cache_status}` : null].filter(Boolean).join(", ") || "—"}</td>
                    <td className={`${td} font-mono`}>{row.pop ?? "—"}</td>
                    <td className={tdNum}>{milliseconds(row.response_time_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager offset={offset} limit={LIMIT} total={data.total} onChange={setOffset} noun="calls" labels={["Previous", "Next"]} />
        </>
      )}
    </Card>
  );
}
