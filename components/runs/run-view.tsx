"use client";

import Link from "next/link";

import { describeTrigger } from "@/lib/core/run-trigger";
import { useQuery } from "@tanstack/react-query";
import { siteCrumb } from "@/components/sites/site-crumb";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { api } from "@/components/dashboard/api";
import type { RunDetail } from "@/components/dashboard/types";
import { percentOf } from "@/lib/core/format";
import { Card, EmptyState, ErrorNote, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { ProgressBar } from "@/components/ui/progress-bar";
import { StatusBadge } from "@/components/ui/status-badge";
import { REGIONS } from "@/lib/core/regions";
import { TableScroll } from "@/components/ui/table-scroll";
import { CallsCard } from "./calls-card";
import { NotCachedCard } from "./not-cached-card";
import { PopsCard } from "./pops-card";
import { VariantsCard } from "./variants-card";
import { AdviceCard, VisitorsCard } from "./visitors-card";
import { EGRESS_LABELS } from "./region-choices";
import { RegionPops, RegionTruthNotes } from "./region-reach";
import { count, duration, isActive, milliseconds, percent, plannedOrDone, ratio } from "./format";
import { RunFigures } from "./run-figures";
import { ColumnHeads, td, tdNum } from "./run-cells";

const regionName = (code: string) => REGIONS.find((region) => region.code === code)?.name ?? code;

/** At least this share of the calls answered BYPASS/DYNAMIC and the page warns that they warmed nothing. */
const MOSTLY = 0.5;

function runQueryKey(runId: number) {
  return ["run", runId] as const;
}

/** One run, boost or on-demand warm: polled every 2 s while it is pending or running. */
export function RunView({ initialRun }: { initialRun: RunDetail }) {
  const { data: run, error } = useQuery({
    queryKey: runQueryKey(initialRun.id),
    queryFn: () => api<RunDetail>(`/runs/${initialRun.id}`),
    initialData: initialRun,
    refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? 2_000 : false),
  });
  const { summary } = run;
  const { done, total } = plannedOrDone(run);
  const bypassShare = ratio(run.bypassed_calls, summary.total_calls);
  const variations = [
    run.variations?.user_agents?.length ? `user agents: ${run.variations.user_agents.join(", ")}` : "user agent: desktop",
    run.variations?.languages?.length ? `languages: ${run.variations.languages.join(", ")}` : null,
    run.request_profile?.custom_user_agents?.length ? `custom user agents: ${run.request_profile.custom_user_agents.join(", ")}` : null,
    run.variations?.cookie_sets?.length ? `cookie sets: ${run.variations.cookie_sets.map((set) => set.name).join(", ")}` : null,
    run.variations?.encodings?.length ? `encodings: ${run.variations.encodings.join(", ")}` : null,
    run.request_profile?.basic_auth ? `Basic auth as ${run.request_profile.basic_auth.username}` : null,
  ].filter(Boolean);

  return (
    <div className="space-y-6">
      <Breadcrumb
        trail={[siteCrumb(run.site_id), ...(run.boost_id ? [{ href: `/boosts/${run.boost_id}`, label: run.boost_name ?? `Boost ${run.boost_id}` }] : [])]}
        current={`${run.type === "warm" ? "Warm run" : "Run"} ${run.number}`}
      />
      <PageHeader
        title={run.type === "warm" ? `Warm run ${run.number}` : `Run ${run.number} of ${run.boost_name ?? `boost ${run.boost_id}`}`}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={run.status} />
            <span>{run.type === "warm" ? "On-demand warm" : `Boost “${run.boost_name ?? run.boost_id}”`}</span>
            {run.triggered_by ? <span data-testid="run-trigger">· started by {describeTrigger(run.triggered_by)}</span> : null}
          </span>
        }
      />
      <ErrorNote error={error} />
      {run.status_message ? (
        <p
          role="status"
          className={`rounded-md border px-3 py-2 text-sm ${run.status === "failed" ? "border-red-200 bg-red-50 text-red-800" : run.status === "paused" ? "border-amber-200 bg-amber-50 text-amber-900" : "border-slate-200 bg-white text-slate-700"}`}
        >
          {run.status_message}
        </p>
      ) : null}

      <Card title="Progress">
        <div className="max-w-md">
          <ProgressBar done={done} total={total} label={`Progress of run ${run.id}`} />
        </div>
        <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-500">Queued</dt>
            <dd>
              <LocalTime value={run.created_at} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Started</dt>
            <dd>
              <LocalTime value={run.started_at} empty="not yet" />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Finished</dt>
            <dd>
              <LocalTime value={run.finished_at} empty={isActive(run.status) ? "in progress" : "—"} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Duration</dt>
            <dd className="tabular-nums">{duration(run.started_at, run.finished_at)}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-slate-500">Regions</dt>
            <dd>{run.region.map((code) => `${regionName(code)} (${code})`).join(", ")}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-slate-500">Variations</dt>
            <dd>{variations.join("; ")}</dd>
          </div>
          {run.visit_share && run.visit_share.share !== null ? (
            <div className="sm:col-span-2 lg:col-span-4">
              <dt className="text-slate-500">Visits covered</dt>
              <dd data-testid="run-visit-share">
                {percentOf(run.visit_share.share)} of the site&apos;s last 30 days of visits were to the pages this run warms ({run.visit_share.visits.toLocaleString("en")} of{" "}
                {run.visit_share.total_visits.toLocaleString("en")}, from its{" "}
                <Link href={`/sites/${run.site_id}#traffic`} className="text-brand-700 underline">
                  traffic data
                </Link>{" "}
                when the run was planned)
              </dd>
            </div>
          ) : null}
        </dl>
      </Card>

      <section aria-labelledby="figures-heading">
        <h2 id="figures-heading" className="sr-only">
          Figures
        </h2>
        <RunFigures run={run} />
      </section>

      {bypassShare !== null && bypassShare >= MOSTLY ? (
        <div role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-semibold">
            {count(run.bypassed_calls)} of {count(summary.total_calls)} calls were answered BYPASS or DYNAMIC: these calls warmed nothing.
          </p>
          <p className="mt-1">
            The CDN passed them to the origin without storing the answer, so no visitor gets a cached page from them. Some CDNs do this on purpose for some requests — Vercel, for example, bypasses its
            cache for crawler user agents — so warm with the <b>mobile</b> or <b>desktop</b> user agent, or check the page’s caching headers.
          </p>
        </div>
      ) : null}

      <AdviceCard run={run} />
      <VisitorsCard run={run} />
      <NotCachedCard run={run} />
      <CallsCard run={run} />

      <div className="grid gap-6">
        <Card title="Calls per region" className="min-w-0">
          <RegionTruthNotes regions={run.regions_breakdown} />
          {run.regions_breakdown.length === 0 ? (
            <EmptyState title="No region" />
          ) : (
            <TableScroll label="Calls per region" className="-mx-4 sm:mx-0">
              <table className="min-w-full divide-y divide-slate-200">
                <thead>
                  <tr>
                    <ColumnHeads
                      labels={["Region", "Left through", "Answered by", "Calls", "Success", "Cache hits", "Bypass", "Avg. time"]}
                      numeric={["Calls", "Success", "Cache hits", "Bypass", "Avg. time"]}
                    />
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {run.regions_breakdown.map((region) => (
                    <tr key={region.region}>
                      <td className={`${td} font-medium`}>
                        {regionName(region.region)} ({region.region})
                      </td>
                      <td className={td}>{EGRESS_LABELS[region.egress]}</td>
                      <td className={td}>
                        <RegionPops region={region} />
                      </td>
                      <td className={tdNum}>{count(region.total_calls)}</td>
                      <td className={tdNum}>{percent(ratio(region.successful_calls, region.total_calls))}</td>
                      <td className={tdNum}>{percent(ratio(region.cache_hits, region.total_calls))}</td>
                      <td className={tdNum}>{count(region.bypassed_calls)}</td>
                      <td className={tdNum}>{region.total_calls ? milliseconds(region.average_response_time_ms) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </Card>

        <PopsCard run={run} />
        <VariantsCard run={run} />
      </div>

      {run.slowdowns.length ? (
        <Card title="Pace changes">
          <p className="mb-3 text-sm text-slate-600">
            The engine slows down on its own when the site does: it halves the calls it keeps open when responses get over three times slower than at the start of the run (or when the site answers
            429/503 with Retry-After), and adds one back as the site recovers.
          </p>
          <ul className="divide-y divide-slate-100">
            {run.slowdowns.map((change, index) => (
              <li key={index} className="flex flex-wrap items-baseline gap-x-3 py-2 text-sm">
                <LocalTime value={change.at} />
                <span className="font-medium text-slate-900">{change.concurrency === 1 ? "1 call at a time" : `${change.concurrency} calls at a time`}</span>
                <span className="text-slate-600">{change.reason}</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card title="Failure samples">
        {run.failure_samples.length === 0 ? (
          <EmptyState title={summary.failed_calls ? "No sample recorded" : "No failed call"} />
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">
              The first {run.failure_samples.length} of {count(summary.failed_calls)} failed calls.
            </p>
            <ul className="divide-y divide-slate-100">
              {run.failure_samples.map((sample, index) => (
                <li key={index} className="py-2 text-sm">
                  <p className="break-all font-mono text-xs text-slate-800">{sample.url}</p>
                  <p className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-600">
                    <span className="font-medium text-red-700">{sample.status ? `HTTP ${sample.status}` : "no answer"}</span>
                    {sample.error && sample.error !== `HTTP ${sample.status}` ? <span>{sample.error}</span> : null}
                    <span>
                      {regionName(sample.region)} · {sample.user_agent}
                      {sample.language ? ` · ${sample.language}` : ""}
                    </span>
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </div>
  );
}
