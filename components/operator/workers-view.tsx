"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { count } from "@/components/runs/format";
import { EGRESS_LABELS } from "@/components/runs/region-choices";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { TableScroll } from "@/components/ui/table-scroll";
import type { RegionEgress, WorkerRow } from "./types";

export function WorkersView() {
  const view = useQuery({
    queryKey: ["operator", "workers"],
    queryFn: () => api<{ workers: WorkerRow[]; regions: RegionEgress[] }>("/api/operator/workers"),
    refetchInterval: 15_000,
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Workers & regions"
        subtitle="Each worker process (the server's own, and each npm run worker) reports in every 15 seconds; one that has not for a minute is stale, and it is forgotten after a day. Calls in flight: the warming calls it was making at its last report."
      />
      <Card title="Workers">
        {view.isPending ? (
          <Loading />
        ) : view.error ? (
          <ErrorNote error={view.error} />
        ) : view.data.workers.length === 0 ? (
          <EmptyState title="No worker reported in">With the Inngest driver, or before the first worker starts, none is listed.</EmptyState>
        ) : (
          <TableScroll label="Workers">
            <table className="w-full min-w-[760px] text-left text-sm">
              <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-2 pr-4 font-medium">Worker</th>
                  <th className="py-2 pr-4 font-medium">Regions</th>
                  <th className="py-2 pr-4 font-medium">Started</th>
                  <th className="py-2 pr-4 font-medium">Last report</th>
                  <th className="py-2 pr-4 font-medium">Calls in flight</th>
                  <th className="py-2 font-medium">State</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {view.data.workers.map((worker) => (
                  <tr key={worker.id} data-testid="worker-row">
                    <td className="py-3 pr-4 font-mono text-xs">{worker.id}</td>
                    <td className="py-3 pr-4">{worker.regions.length ? worker.regions.join(", ") : <span className="text-slate-500">any region no regional worker takes</span>}</td>
                    <td className="py-3 pr-4">
                      <LocalTime value={worker.started_at} />
                    </td>
                    <td className="py-3 pr-4">
                      <LocalTime value={worker.last_report_at} />
                    </td>
                    <td className="py-3 pr-4 tabular-nums">{count(worker.calls_in_flight)}</td>
                    <td className="py-3">
                      <StatusBadge status={worker.live ? "live" : "stale"} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
      <Card title="Regions and their egress">
        <p className="mb-3 text-sm text-slate-600">
          How each region's calls leave the service now: through a worker placed for it (its own egress), a proxy configured for it (<code>PREHEAT_REGION_PROXY_{"<CODE>"}</code>), or the service's own
          network. Regions that share an egress reach the same CDN points of presence, so warming them apart fills one cache, not several.
        </p>
        {view.data ? (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">Region</th>
                <th className="py-2 pr-4 font-medium">Leaves through</th>
                <th className="py-2 font-medium">Shares its egress with</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {view.data.regions.map((region) => (
                <tr key={region.code} data-testid="region-row">
                  <td className="py-2 pr-4">
                    {region.name} <code className="text-xs text-slate-500">{region.code}</code>
                  </td>
                  <td className="py-2 pr-4">
                    {EGRESS_LABELS[region.egress]}
                    {region.egress !== "local" && region.shares_egress_with.length === 0 ? " · its own egress" : ""}
                  </td>
                  <td className="py-2">{region.shares_egress_with.length ? region.shares_egress_with.join(", ") : <span className="text-slate-500">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Card>
    </div>
  );
}
