import type { RunDetail } from "@/components/dashboard/types";
import { Card, EmptyState } from "@/components/ui/card";
import { NOT_CACHED_ADVICE, NOT_CACHED_REASONS } from "@/lib/core/not-cached";
import { count, percent, ratio } from "./format";

/** Why the calls that did not hit were not cached: each reason with its count and what the owner can do, most calls first. */
export function NotCachedCard({ run }: { run: RunDetail }) {
  const { summary } = run;
  const reasons = NOT_CACHED_REASONS.map((reason) => ({ reason, calls: summary.not_cached[reason] ?? 0 }))
    .filter(({ calls }) => calls > 0)
    .sort((a, b) => b.calls - a.calls);
  return (
    <Card title="Why calls were not cached" className="min-w-0">
      {reasons.length === 0 ? (
        <EmptyState title={summary.total_calls ? "Every call was a cache hit" : "No call answered yet"} />
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600">
            {count(summary.total_calls - summary.cache_hits)} of {count(summary.total_calls)} calls did not end as a cache hit. Each has one reason, the first that applies in this order: an error, a
            redirect, no-store/private, a cookie, no-cache, Vary, a CDN bypass, no cache header, a cacheable miss.
          </p>
          <ul className="divide-y divide-slate-100" data-testid="not-cached-reasons">
            {reasons.map(({ reason, calls }) => (
              <li key={reason} className="flex gap-4 py-2 text-sm" data-testid="not-cached-reason" data-reason={reason}>
                <div className="w-24 shrink-0 text-right tabular-nums">
                  <p className="font-semibold text-slate-900">{count(calls)}</p>
                  <p className="text-xs text-slate-500">{percent(ratio(calls, summary.total_calls))}</p>
                </div>
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {NOT_CACHED_ADVICE[reason].title} <code className="ml-1 text-xs font-normal text-slate-500">{reason}</code>
                  </p>
                  <p className="text-slate-600">{NOT_CACHED_ADVICE[reason].advice}</p>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
