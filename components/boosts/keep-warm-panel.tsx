"use client";

import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { api } from "@/components/dashboard/api";
import type { KeepWarmState } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, Loading } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";

const PAGE = 20;
const count = (n: number) => n.toLocaleString("en");

/** What keep-warm does for a boost: pages kept warm, the next re-warm, the month's calls against its budget, and the pages it leaves out with why. */
export function KeepWarmPanel({ boostId }: { boostId: number }) {
  const [offset, setOffset] = useState(0);
  const state = useQuery({
    queryKey: ["boost", boostId, "keep-warm", offset],
    queryFn: () => api<KeepWarmState>(`/boosts/${boostId}/keep-warm?limit=${PAGE}&offset=${offset}`),
    refetchInterval: 15_000,
    placeholderData: (previous) => previous,
  });
  if (state.isPending)
    return (
      <Card title="Keep warm">
        <Loading />
      </Card>
    );
  if (state.error)
    return (
      <Card title="Keep warm">
        <ErrorNote error={state.error} />
      </Card>
    );
  const s = state.data;
  if (!s.keep_warm && s.entries === 0) return null;
  const notChased = s.not_chased;
  return (
    <Card title="Keep warm">
      <p className="mb-3 text-sm text-slate-600">
        {s.keep_warm ? "Each page is warmed again as its shared-cache lifetime ends, as the CDN's answers give it, so that the next visitor gets a hit." : "Keep-warm is off: no page is re-warmed."}{" "}
        Pages appear here once a run has warmed them.
      </p>
      <dl className="grid gap-3 text-sm sm:grid-cols-3">
        <Figure label="Kept warm">{`${count(s.chased)} of ${count(s.entries)} (URL × variant × region)`}</Figure>
        <Figure label="Next re-warm">
          <LocalTime value={s.next_due_at} empty="none due" />
        </Figure>
        <Figure label="Keep-warm calls this month">
          {count(s.calls_this_month)}
          {s.monthly_call_budget === null ? " (no budget of its own)" : ` of a budget of ${count(s.monthly_call_budget)}`}
        </Figure>
        <Figure label="Projected a month">{`${count(s.projected_monthly_calls)} calls, from the lifetimes learned so far`}</Figure>
        {s.monthly_call_budget !== null ? (
          <Figure label="Left cold by the budget">{s.left_cold_by_budget ? `${count(s.left_cold_by_budget)} entries, the last in the boost's order` : "none"}</Figure>
        ) : null}
      </dl>
      {notChased.total ? (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-slate-800">Not kept warm ({count(notChased.total)})</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {notChased.data.map((entry) => (
              <li key={`${entry.url}|${entry.region}|${entry.user_agent}|${entry.language ?? ""}`} className="py-2">
                <span className="break-all font-mono text-xs text-slate-700">{entry.url}</span>{" "}
                <span className="text-xs text-slate-500">
                  ({entry.region}, {entry.user_agent}
                  {entry.language ? `, ${entry.language}` : ""})
                </span>
                <p className="text-slate-600">{entry.reason}</p>
              </li>
            ))}
          </ul>
          {notChased.total > PAGE ? (
            <div className="mt-2 flex gap-2">
              <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </Button>
              <Button variant="secondary" disabled={offset + PAGE >= notChased.total} onClick={() => setOffset(offset + PAGE)}>
                Next
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-800">{children}</dd>
    </div>
  );
}
