"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, DASHBOARD_HEADER } from "@/components/dashboard/api";
import { useSettled } from "@/components/dashboard/use-settled";
import type { RunDetail } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { TableScroll } from "@/components/ui/table-scroll";
import type { ResultKind, RunResult } from "@/lib/runs/schemas";
import { NOT_CACHED_ADVICE, NOT_CACHED_REASONS, type NotCachedReason } from "@/lib/core/not-cached";
import { count, isActive, milliseconds } from "./format";
import { Pager } from "./pager";
import { ColumnHeads, td, tdNum } from "./run-cells";

type ResultPage = { data: RunResult[]; total: number; limit: number; offset: number; truncated: boolean };
type Filters = { calls: ResultKind; reason: string; region: string; url: string };
const LIMIT = 25;
const NO_FILTER: Filters = { calls: "not_hit", reason: "", region: "", url: "" };

/** What the "Show" choice lists: a kind of call, or the calls of one reason. */
const SHOW_KINDS: { value: ResultKind; label: string }[] = [
  { value: "not_hit", label: "Calls that were not a cache hit" },
  { value: "all", label: "Every call" },
  { value: "hit", label: "Cache hits" },
];

function resultsPath(runId: number, filters: Filters, extra: Record<string, string>): string {
  const query = new URLSearchParams(extra);
  if (filters.reason) query.set("reason", filters.reason);
  else query.set("calls", filters.calls);
  if (filters.region) query.set("region", filters.region);
  if (filters.url.trim()) query.set("url", filters.url.trim());
  return `/runs/${runId}/results?${query}`;
}

/** Downloads every stored row that matches as CSV: fetched with the dashboard header (a plain link cannot send it), then saved. */
async function downloadCsv(runId: number, filters: Filters, name: string): Promise<void> {
  const response = await fetch(`/api/v1${resultsPath(runId, filters, { format: "csv" })}`, { headers: { [DASHBOARD_HEADER]: "1" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`The download failed (${response.status}).`);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The call's outcome in words: a hit, or its reason; a cacheable miss says it warmed the page (and what asking again found). */
function outcomeOf(row: RunResult): string {
  if (row.reason === null) return "Cache hit";
  if (row.reason === "miss") return row.verified_cache_status ? `Cacheable miss: warmed (asked again: ${row.verified_cache_status})` : "Cacheable miss: warmed";
  return NOT_CACHED_ADVICE[row.reason as NotCachedReason].title;
}

/** The run's calls, URL by URL: by default those that were not a cache hit, or every call, by reason, region and URL, with CSV downloads. */
export function CallsCard({ run }: { run: RunDetail }) {
  const [filters, setFilters] = useState(NO_FILTER);
  const [search, setSearch] = useState("");
  const url = useSettled(search, 300);
  const [offset, setOffset] = useState(0);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const shown = { ...filters, url };
  const { data, error } = useQuery({
    queryKey: ["run-results", run.id, shown, offset],
    queryFn: () => api<ResultPage>(resultsPath(run.id, shown, { limit: String(LIMIT), offset: String(offset) })),
    placeholderData: keepPreviousData,
    refetchInterval: isActive(run.status) ? 5_000 : false,
  });
  useEffect(() => setOffset(0), [url]);
  const choose = (change: Partial<Filters>) => {
    setFilters({ ...filters, ...change });
    setOffset(0);
  };
  const download = (which: Filters, name: string) => downloadCsv(run.id, which, name).then(() => setDownloadError(null), setDownloadError);
  const reasons = NOT_CACHED_REASONS.filter((reason) => (run.summary.not_cached[reason] ?? 0) > 0);
  const filtered = filters.reason || filters.region || url.trim() || filters.calls !== "not_hit";
  return (
    <Card title="Calls, URL by URL" className="min-w-0">
      <p className="mb-3 text-sm text-slate-600">
        Each call of the run in call order, with what the cache answered. A <b>cacheable miss</b> is a page the cache did not have yet and stored: that call warmed it.
      </p>
      <div className="mb-3 flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-slate-600">Show</span>
          <select
            className={inputClass}
            value={filters.reason ? `reason:${filters.reason}` : filters.calls}
            onChange={(e) => {
              const [kind, reason] = e.target.value.split(":");
              choose(kind === "reason" ? { calls: "not_hit", reason } : { calls: kind as ResultKind, reason: "" });
            }}
          >
            {SHOW_KINDS.map((kind) => (
              <option key={kind.value} value={kind.value}>
                {kind.label}
              </option>
            ))}
            {reasons.length ? (
              <optgroup label="Only one reason">
                {reasons.map((reason) => (
                  <option key={reason} value={`reason:${reason}`}>
                    {NOT_CACHED_ADVICE[reason].title} ({count(run.summary.not_cached[reason] ?? 0)})
                  </option>
                ))}
              </optgroup>
            ) : null}
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
        <label className="flex min-w-48 flex-1 flex-col gap-1">
          <span className="text-slate-600">URL contains</span>
          <input type="search" className={inputClass} value={search} onChange={(e) => setSearch(e.target.value)} placeholder="/products/" />
        </label>
        <span className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => download(shown, `run-${run.id}-calls-shown.csv`)}>
            Download these calls (CSV)
          </Button>
          <Button variant="secondary" onClick={() => download({ ...NO_FILTER, calls: "all" }, `run-${run.id}-every-call.csv`)}>
            Download every call (CSV)
          </Button>
        </span>
      </div>
      <ErrorNote error={error ?? downloadError} />
      {data?.truncated ? (
        <p role="note" className="mb-2 text-sm text-amber-800">
          This run made {count(run.summary.total_calls)} calls, more than it keeps call by call: this list and the CSV files cover its first calls as they were recorded. The figures above count every
          call.
        </p>
      ) : null}
      {!data ? null : data.data.length === 0 ? (
        <EmptyState title={filtered ? "No call matches" : run.summary.total_calls ? "Every call was a cache hit" : "No call answered yet"} />
      ) : (
        <>
          <TableScroll label="Calls, URL by URL" className="-mx-4 sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200" data-testid="run-calls">
              <thead>
                <tr>
                  <ColumnHeads labels={["URL", "Result", "Variant", "Status", "Cache", "PoP", "Time"]} numeric={["Status", "Time"]} />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.data.map((row, index) => (
                  <tr key={`${offset}-${index}`}>
                    <td className={`${td} max-w-md truncate font-mono text-xs`} title={row.url}>
                      {row.url}
                    </td>
                    <td className={td}>{outcomeOf(row)}</td>
                    <td className={td}>{[row.region, row.user_agent, row.language, row.cookie_set, row.encoding].filter(Boolean).join(" · ")}</td>
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
