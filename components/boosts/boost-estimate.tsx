"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "@/components/dashboard/api";
import { Card } from "@/components/ui/card";
import type { BoostEstimate as Estimate } from "@/lib/boosts/schemas";

/** The draft as the estimate takes it: what decides the calls. */
type Draft = {
  source_type: string;
  region: string[];
  sitemap_ids?: number[];
  source_url?: string;
  url_root: string;
  exclude_ext: string[] | null;
  variations: unknown;
  request_profile?: unknown;
  content_types: string[] | null;
  call_limit: number | null;
  only_changed?: boolean;
  boost_id?: number;
};

/** `value`, once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // Depends on the JSON key, not the object: a new object with the same fields is no change.
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

const n = (value: number) => value.toLocaleString("en");

/** What a run would do with the form as it is now: URLs, calls, calls per region against the quota; updated as the owner edits. */
export function BoostEstimateCard({ siteId, draft, ready }: { siteId: number; draft: Draft; ready: boolean }) {
  const settled = useSettled(draft, 500);
  const { data, error, isFetching } = useQuery({
    queryKey: ["boost-estimate", siteId, settled],
    queryFn: () => api<Estimate>(`/api/dashboard/sites/${siteId}/boost-estimate`, { method: "POST", body: settled }),
    enabled: ready,
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
  return (
    <Card title="Estimate">
      <div aria-live="polite" data-testid="boost-estimate" className="space-y-2 text-sm text-slate-700">
        {!ready ? (
          <p className="text-slate-500">Choose what to warm and where: the estimate follows.</p>
        ) : error ? (
          <p className="text-red-700">The estimate is not available: {error.message}</p>
        ) : !data ? (
          <p className="text-slate-500">Estimating…</p>
        ) : (
          <>
            <p className={isFetching ? "opacity-60" : undefined}>
              A run now would warm <strong>{n(data.urls)}</strong> URLs with <strong>{n(data.calls)}</strong> calls
              {data.calls > data.quota_remaining ? (
                <span className="font-medium text-red-700"> — more than the {n(data.quota_remaining)} left in this month’s quota: it would fail.</span>
              ) : (
                <span className="text-slate-500"> ({n(data.quota_remaining)} left in this month’s quota).</span>
              )}
            </p>
            <p className="text-slate-600">
              {Object.entries(data.calls_by_region)
                .map(([region, calls]) => `${region}: ${n(calls)}`)
                .join(" · ")}
            </p>
            {data.notes.length ? <p className="text-xs text-slate-500">{data.notes.join("; ")}.</p> : null}
          </>
        )}
      </div>
    </Card>
  );
}
