"use client";

import { type QueryClient, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { useSettled } from "@/components/dashboard/use-settled";
import { Card } from "@/components/ui/card";
import { quotaShare } from "@/components/usage/quota-share";
import type { BoostEstimate as Estimate } from "@/lib/boosts/schemas";
import type { estimateDraft } from "./boost-form-model";

/** The draft as the estimate takes it: what decides the calls, and the schedule. */
type Draft = ReturnType<typeof estimateDraft>;

const n = (value: number) => value.toLocaleString("en");

const estimateKey = (siteId: number, draft: Draft) => ["boost-estimate", siteId, draft] as const;
const fetchEstimate = (siteId: number, draft: Draft) => api<Estimate>(`/api/dashboard/sites/${siteId}/boost-estimate`, { method: "POST", body: draft });

/** The estimate of the form as it is, once it has stopped changing for half a second. */
export function useBoostEstimate(siteId: number, draft: Draft, ready: boolean): UseQueryResult<Estimate> {
  const settled = useSettled(draft, 500);
  // `ready` judges the draft on screen; the settled one may still be the draft before it (no sitemap
  // checked while the list loaded), which the API refuses: ask only once they are the same.
  const settledOnScreen = JSON.stringify(settled) === JSON.stringify(draft);
  return useQuery({
    queryKey: estimateKey(siteId, settled),
    queryFn: () => fetchEstimate(siteId, settled),
    enabled: ready && settledOnScreen,
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
}

/** The estimate of exactly this draft (the card's when it has settled on it): what Save checks the schedule's cost with. */
export function estimateOf(queryClient: QueryClient, siteId: number, draft: Draft): Promise<Estimate> {
  return queryClient.fetchQuery({ queryKey: estimateKey(siteId, draft), queryFn: () => fetchEstimate(siteId, draft), staleTime: 30_000 });
}

/** What the schedule costs a month against the quota; in red above it. */
function MonthlyCost({ estimate, schedule }: { estimate: Estimate; schedule: string | null | undefined }) {
  const calls = estimate.calls_per_month;
  if (calls === null) {
    return (
      <p data-testid="boost-monthly-cost" className="text-slate-500">
        {schedule ? "The schedule is not a valid cron expression yet: its monthly cost follows once it is." : "No schedule: each run started by hand or the API counts its own calls."}
      </p>
    );
  }
  const share = quotaShare(calls, estimate.monthly_quota);
  return (
    <p data-testid="boost-monthly-cost" className={share.over ? "font-medium text-red-700" : undefined}>
      ≈ <strong>{n(calls)}</strong> calls a month: {share.words} your quota of {n(estimate.monthly_quota)}
      {share.over ? ". Runs fail once the month’s quota is spent." : "."} <span className="text-xs font-normal text-slate-500">(the schedule’s runs in the next 30 days × the calls of a run now)</span>
    </p>
  );
}

/** What keeping the boost's pages warm costs a month, from the lifetimes its runs learned; nothing before they learned any. */
function KeepWarmCost({ estimate, keepWarm }: { estimate: Estimate; keepWarm: boolean }) {
  if (!keepWarm) return null;
  if (estimate.keep_warm_calls_per_month === null) return <p className="text-slate-500">Keep warm: its cost a month follows once a run has read the pages’ lifetimes from the CDN’s answers.</p>;
  return (
    <p data-testid="boost-keep-warm-cost">
      Keep warm: ≈ <strong>{n(estimate.keep_warm_calls_per_month)}</strong> more calls a month, one a lifetime per page kept warm
      {estimate.keep_warm_left_cold ? `; the budget leaves ${n(estimate.keep_warm_left_cold)} of them cold (the last in the boost’s order)` : ""}.
    </p>
  );
}

/** What a run would do with the form as it is now: URLs, calls, calls per region against the quota, and what the schedule costs a month; updated as the owner edits. */
export function BoostEstimateCard({
  estimate,
  ready,
  blocker,
  schedule,
  keepWarm = false,
}: {
  estimate: UseQueryResult<Estimate>;
  ready: boolean;
  /** The sentence of the value that keeps the estimate away, when one was typed wrong. */
  blocker?: string;
  schedule: string | null | undefined;
  keepWarm?: boolean;
}) {
  const { data, error, isFetching } = estimate;
  return (
    <Card title="Estimate">
      <div aria-live="polite" data-testid="boost-estimate" className="space-y-2 text-sm text-slate-700">
        {!ready && blocker ? (
          <p className="text-red-700">No estimate until this is fixed: {blocker}</p>
        ) : !ready ? (
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
            <MonthlyCost estimate={data} schedule={schedule} />
            <KeepWarmCost estimate={data} keepWarm={keepWarm} />
            {data.notes.length ? <p className="text-xs text-slate-500">{data.notes.join("; ")}.</p> : null}
          </>
        )}
      </div>
    </Card>
  );
}
