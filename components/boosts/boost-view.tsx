"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { siteCrumb } from "@/components/sites/site-crumb";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useRef } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import type { Boost, Page, Sitemap } from "@/components/dashboard/types";
import { RunCharts } from "@/components/runs/run-charts";
import { newestRunsQuery, RunHistory, runsQueryKey } from "@/components/runs/run-history";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, ErrorNote, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { BOOST_STATUS_MEANINGS, boostStatusWithRuns } from "@/lib/core/boost-status";
import { REGIONS } from "@/lib/core/regions";
import { URL_ORDER_LABELS } from "@/lib/core/url-orders";
import { BoostHooks } from "./boost-hooks";
import { KeepWarmPanel } from "./keep-warm-panel";
import { describeSchedule } from "./cron";
import { siteBoostsQueryKey } from "./site-boosts";
import { Can } from "@/components/dashboard/role";

const regionLabel = (code: string) => `${REGIONS.find((region) => region.code === code)?.name ?? code} (${code})`;

function Detail({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-800">{children}</dd>
    </div>
  );
}

const none = (text: string) => <span className="text-slate-500">{text}</span>;

function runError(error: unknown): Error | null {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 409) return new Error(`${error.message} Wait for it to end (its progress is below), then start another.`);
  return error as Error;
}

/** A boost: what it warms and when, Run now / Resume, its runs and their trends. */
export function BoostView({ initialBoost }: { initialBoost: Boost }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const boostId = initialBoost.id;
  const { data: boost, error: loadError } = useQuery({
    queryKey: ["boost", boostId],
    queryFn: () => api<Boost>(`/boosts/${boostId}`),
    initialData: initialBoost,
  });
  // The runs table's own first page: the badge and the table read one fetch, so they never disagree.
  const newestRuns = useQuery(newestRunsQuery(boostId));
  const last = newestRuns.data?.data[0];
  const status = newestRuns.data ? boostStatusWithRuns(boost.status, last ?? null) : boost.status;
  const sitemaps = useQuery({
    queryKey: ["sitemaps", { siteId: boost.site_id }, "all"],
    queryFn: () => api<Page<Sitemap>>(`/sites/${boost.site_id}/sitemaps?limit=100`),
    enabled: boost.source_type === "sitemap",
  });

  // The boost and its runs are read again together, its runs first: the badge follows the newest run,
  // and a boost read back as running before its run is in the table would say so too early. The
  // button stays busy until the new run is in the table, so that "queued", the badge and the table's
  // row appear at once; no optimistic status, which the table could not show.
  const readAgain = async () => {
    await queryClient.invalidateQueries({ queryKey: runsQueryKey(boostId) });
    await queryClient.invalidateQueries({ queryKey: ["boost", boostId] });
  };
  const trigger = useMutation({
    mutationFn: () => api<{ run_id: number; status: string }>(`/boosts/${boostId}/run`, { method: "POST" }),
    onSuccess: async () => {
      void queryClient.invalidateQueries({ queryKey: siteBoostsQueryKey(boost.site_id) });
      await readAgain();
    },
    // 409: a run is in progress that this page has not seen yet; show it.
    onError: () => readAgain(),
  });
  // When the newest run starts or ends, the server changes the boost with it (its status, its next
  // run): read it again. Once the run ends, "queued" and "already running" messages are out of date.
  const newestState = last ? `${last.id} ${last.status}` : null;
  const previous = useRef({ newestState, status });
  const resetTrigger = trigger.reset;
  useEffect(() => {
    const before = previous.current;
    previous.current = { newestState, status };
    if (before.newestState !== newestState && before.newestState !== null) void queryClient.invalidateQueries({ queryKey: ["boost", boostId] });
    if (before.status === "running" && status !== "running") resetTrigger();
  }, [newestState, status, resetTrigger, queryClient, boostId]);
  const remove = useMutation({
    mutationFn: () => api(`/boosts/${boostId}`, { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ["boost", boostId] });
      void queryClient.invalidateQueries({ queryKey: siteBoostsQueryKey(boost.site_id) });
      router.push(`/sites/${boost.site_id}`);
    },
  });

  const paused = status === "paused";
  const sitemapUrl = (id: number) => sitemaps.data?.data.find((sitemap) => sitemap.id === id)?.url ?? `Sitemap ${id}`;
  const agents = boost.variations?.user_agents?.length ? boost.variations.user_agents.join(", ") : "desktop (default)";
  const languages = boost.variations?.languages?.length ? boost.variations.languages.join(", ") : null;
  const profile = boost.request_profile;
  const sent = [
    profile?.headers ? `headers ${Object.keys(profile.headers).join(", ")}` : null,
    profile?.cookies ? `cookies ${Object.keys(profile.cookies).join(", ")}` : null,
    profile?.basic_auth ? `Basic auth as ${profile.basic_auth.username} (password set)` : null,
  ].filter(Boolean);

  return (
    <div className="space-y-6">
      <Breadcrumb trail={[siteCrumb(boost.site_id)]} current="Boost" />
      <PageHeader
        title={boost.name}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="boost-status">
              <StatusBadge status={status} meaning={BOOST_STATUS_MEANINGS[status]} />
            </span>
            <span>{boost.schedule ? (describeSchedule(boost.schedule) ?? boost.schedule) : "No schedule"}</span>
          </span>
        }
        actions={
          <>
            <Can atLeast="member">
              <Button onClick={() => trigger.mutate()} busy={trigger.isPending}>
                Run now
              </Button>
            </Can>
            <Can atLeast="admin">
              <Link href={`/boosts/${boostId}/edit`} className={buttonClass("secondary")}>
                Edit
              </Link>
            </Can>
          </>
        }
      />
      <ErrorNote error={loadError} />
      <div aria-live="polite" className="space-y-2 empty:hidden">
        {trigger.data ? (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
            A run is queued: its progress shows below, or{" "}
            <Link href={`/runs/${trigger.data.run_id}`} className="font-medium underline">
              open it
            </Link>
            .
          </p>
        ) : null}
        <ErrorNote error={runError(trigger.error)} />
      </div>

      {boost.unvalidated_limits ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {boost.unvalidated_limits.message}{" "}
          <Link href={`/sites/${boost.site_id}`} className="font-medium underline">
            Validate the site
          </Link>
        </p>
      ) : null}

      {paused ? (
        <section aria-labelledby="paused-heading" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <h2 id="paused-heading" className="font-semibold">
            This boost is paused
          </h2>
          {last?.status_message ? (
            <p className="mt-1">
              <Link href={`/runs/${last.id}`} className="underline">
                Run {last.number}
              </Link>
              : {last.status_message}
            </p>
          ) : null}
          <p className="mt-1">
            It stopped itself after a high error rate{boost.ignore_errors ? "" : " (“Ignore errors” is off)"}, and its schedule does not fire while it is paused. Check the failure samples of the last
            run, fix the site, then resume: “Resume” starts a run now, which un-pauses the boost. Saving a change to the boost resumes it too.
          </p>
          <div className="mt-3">
            <Can atLeast="member">
              <Button onClick={() => trigger.mutate()} busy={trigger.isPending}>
                Resume
              </Button>
            </Can>
          </div>
        </section>
      ) : null}

      <Card title="Settings">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
          <Detail label="Source" wide>
            {boost.source_type === "csv" ? (
              <>
                CSV file <span className="break-all font-mono text-xs">{boost.source_url}</span>
              </>
            ) : (
              <ul className="space-y-0.5">
                {boost.sitemap_ids.map((id) => (
                  <li key={id} className="break-all font-mono text-xs">
                    {sitemapUrl(id)}
                  </li>
                ))}
              </ul>
            )}
          </Detail>
          <Detail label="Regions">{boost.region.map(regionLabel).join(", ")}</Detail>
          <Detail label="User agents">{agents}</Detail>
          <Detail label="Languages">{languages ?? none("none sent")}</Detail>
          <Detail label="Custom user agents">{profile?.custom_user_agents?.length ? profile.custom_user_agents.join("; ") : none("none")}</Detail>
          <Detail label="Cookie sets">
            {boost.variations?.cookie_sets?.length ? boost.variations.cookie_sets.map((set) => `${set.name} (${Object.keys(set.cookies).join(", ") || "no cookie"})`).join("; ") : none("none")}
          </Detail>
          <Detail label="Encodings">{boost.variations?.encodings?.length ? boost.variations.encodings.join(", ") : none("each browser's own")}</Detail>
          <Detail label="Every call sends">{sent.length ? sent.join("; ") : none("nothing more")}</Detail>
          <Detail label="URL root">
            <span className="font-mono">{boost.url_root}</span>
          </Detail>
          <Detail label="Excluded extensions">{boost.exclude_ext?.length ? boost.exclude_ext.join(", ") : none("none")}</Detail>
          <Detail label="Content types">{boost.content_types?.length ? boost.content_types.join(", ") : none("all")}</Detail>
          <Detail label="Call limit">{boost.call_limit === null ? none("no limit") : boost.call_limit.toLocaleString("en")}</Detail>
          {boost.source_type === "sitemap" ? (
            <>
              <Detail label="Order">{URL_ORDER_LABELS[boost.order]}</Detail>
              <Detail label="Only changed URLs">{boost.only_changed ? "yes: new URLs and changed lastmods since the last completed run" : "no: every URL"}</Detail>
            </>
          ) : null}
          <Detail label="Schedule">
            {boost.schedule ? (
              <>
                {describeSchedule(boost.schedule) ?? boost.schedule} <span className="font-mono text-xs text-slate-500">{boost.schedule}</span>
              </>
            ) : (
              none("none")
            )}
          </Detail>
          <Detail label="Keep warm">
            {boost.keep_warm
              ? `yes: each page re-warmed as its cache lifetime ends${boost.keep_warm_lead ? `, ${Math.round(boost.keep_warm_lead * 100)} % of it early` : ""}${boost.monthly_call_budget === null ? "" : `, at most ${boost.monthly_call_budget.toLocaleString("en")} calls a month`}`
              : "no"}
          </Detail>
          <Detail label="Next run">{paused && boost.schedule ? "paused" : <LocalTime value={boost.next_run_at} empty="not scheduled" />}</Detail>
          <Detail label="Check after each run">
            {boost.verify === "visitors" ? "visitor check: a sample asked as standard visitors after each run" : boost.verify ? "yes: each run asks its cacheable misses again" : "no"}
          </Detail>
          <Detail label="Ignore errors">{boost.ignore_errors ? "yes: never pauses itself" : "no: pauses after a high error rate"}</Detail>
          <Detail label="E-mail report">{boost.report_email_enabled ? "on" : "off"}</Detail>
          <Detail label="Created">
            <LocalTime value={boost.created_at} />
          </Detail>
        </dl>
      </Card>

      <KeepWarmPanel boostId={boostId} />
      <RunCharts boostId={boostId} />
      <RunHistory boostId={boostId} />
      <BoostHooks boostId={boostId} />

      {/* Danger last: nothing of the boost sits below its deletion. */}
      <Can atLeast="admin">
        <Card title="Delete this boost">
          <p className="mb-3 text-sm text-slate-600">Removes the boost and its run history. Its schedule stops at once.</p>
          <ConfirmButton label="Delete boost" confirmLabel="Yes, delete this boost" question="Delete the boost and its runs?" busy={remove.isPending} onConfirm={() => remove.mutate()} />
          <ErrorNote error={remove.error} />
        </Card>
      </Can>
    </div>
  );
}
