"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Can, useCan } from "@/components/dashboard/role";
import type { Boost, ChangeReceiver, ChangesWaiting, CreatedChangeReceiver, Page, Site } from "@/components/dashboard/types";
import { siteBoostsQueryKey } from "@/components/boosts/site-boosts";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { ShownOnce } from "@/components/ui/shown-once";
import { StatusBadge } from "@/components/ui/status-badge";
import { ReceiverItem } from "./receiver-item";
import { KIND_NAMES, OWN_SECRET } from "./receiver-steps";

type Kind = ChangeReceiver["kind"];
const KINDS = Object.keys(KIND_NAMES) as Kind[];

const receiversQueryKey = (siteId: number) => ["change-receivers", siteId] as const;

/**
 * Warming what changed (README, "Warming what changed" and "Change receivers"): the site's change
 * profile, the changes waiting to be warmed, and the receivers that systems send their edits to.
 */
export function ChangesPanel({ site }: { site: Site }) {
  return (
    <Card title="Changes">
      <div className="space-y-6">
        <p className="text-sm text-slate-600">
          Warm a page seconds after it is edited, ahead of the site's scheduled, triggered and keep-warm runs (within its pace). Changes come from your own code (
          <code className="rounded bg-slate-100 px-1">POST /v1/sites/{site.id}/changes</code>) or from a change receiver below, the address a shop, a CMS or a host sends its webhooks to. Changes
          arriving within the delay are gathered into one warm, and a URL sent twice is warmed once.
        </p>
        <ChangeProfile site={site} />
        <WaitingChanges siteId={site.id} />
        <Receivers siteId={site.id} />
      </div>
    </Card>
  );
}

const DEFAULTS = "A warm's defaults: desktop, fr";

/** Which boost's variants and regions warm the site's changes (PATCH /v1/sites/{siteId} `change_boost_id`). */
function ChangeProfile({ site }: { site: Site }) {
  const queryClient = useQueryClient();
  const canChange = useCan("admin");
  const boosts = useQuery({ queryKey: siteBoostsQueryKey(site.id), queryFn: () => api<Page<Boost>>(`/sites/${site.id}/boosts?limit=100`) });
  const save = useMutation({
    mutationFn: (changeBoostId: number | null) => api<Site>(`/sites/${site.id}`, { method: "PATCH", body: { change_boost_id: changeBoostId } }),
    onSuccess: (updated) => queryClient.setQueryData(["sites", site.id], updated),
  });
  const current = site.change_boost_id;
  return (
    <section aria-labelledby="change-profile" className="space-y-2">
      <h3 id="change-profile" className="text-sm font-semibold text-slate-900">
        Change profile
      </h3>
      <p className="text-sm text-slate-600">
        Changes are warmed with the variants and regions of the boost chosen here, or with a warm's defaults. Netlify and Vercel deploys run this boost itself: give it <code>only_changed</code> to
        warm what the sitemaps say changed.
      </p>
      {boosts.isPending ? (
        <Loading label="Loading boosts…" />
      ) : boosts.isError ? (
        <ErrorNote error={boosts.error} />
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor="change-boost" className="text-sm font-medium text-slate-700">
            Changes are warmed with
          </label>
          <select
            id="change-boost"
            className={`${inputClass} w-auto`}
            value={current === null ? "" : String(current)}
            disabled={!canChange || save.isPending}
            onChange={(event) => save.mutate(event.target.value === "" ? null : Number(event.target.value))}
          >
            <option value="">{DEFAULTS}</option>
            {boosts.data.data.map((boost) => (
              <option key={boost.id} value={boost.id}>
                {boost.name} ({boost.region.join(", ")})
              </option>
            ))}
          </select>
          {save.isSuccess ? (
            <p role="status" className="text-sm text-emerald-700">
              Saved: the next changes run uses it.
            </p>
          ) : null}
        </div>
      )}
      <ErrorNote error={save.error} />
    </section>
  );
}

/** Now, once a second: the countdown to a changes run's warm. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function countdown(warmAt: string, now: number): string {
  const seconds = Math.ceil((Date.parse(warmAt) - now) / 1000);
  return seconds > 0 ? `warms in ${seconds} s` : "its delay has passed: it starts warming within a second or two";
}

/** The changes run gathering now, with its URLs and countdown, and the last changes runs. */
function WaitingChanges({ siteId }: { siteId: number }) {
  const changes = useQuery({
    queryKey: ["changes", siteId],
    queryFn: () => api<ChangesWaiting>(`/sites/${siteId}/changes`),
    refetchInterval: (query) => (query.state.data?.waiting || query.state.data?.recent.some((run) => run.status === "running") ? 2_000 : 15_000),
  });
  const now = useNow(Boolean(changes.data?.waiting));
  return (
    <section aria-labelledby="changes-waiting" className="space-y-2">
      <h3 id="changes-waiting" className="text-sm font-semibold text-slate-900">
        Waiting to be warmed
      </h3>
      {changes.isPending ? (
        <Loading label="Loading changes…" />
      ) : changes.isError ? (
        <ErrorNote error={changes.error} />
      ) : (
        <>
          {changes.data.waiting ? (
            <div className="rounded-md border border-slate-200 p-3 text-sm" data-testid="changes-waiting">
              <p>
                <Link href={`/runs/${changes.data.waiting.run_id}`} className="font-medium text-brand-700 hover:underline">
                  Run {changes.data.waiting.run_id}
                </Link>
                : {changes.data.waiting.urls.length} URL{changes.data.waiting.urls.length === 1 ? "" : "s"}, {changes.data.waiting.planned_calls} call
                {changes.data.waiting.planned_calls === 1 ? "" : "s"}, {countdown(changes.data.waiting.warm_at, now)} (at <LocalTime value={changes.data.waiting.warm_at} />
                ). Changes sent before then join it.
              </p>
              <ul className="mt-2 max-h-40 list-disc overflow-y-auto pl-5 font-mono text-xs text-slate-700">
                {changes.data.waiting.urls.map((url) => (
                  <li key={url} className="break-all">
                    {url}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-sm text-slate-600">
              No change is waiting: the next one opens a run that warms {changes.data.default_delay_seconds} s later, unless its request names its own{" "}
              <code className="rounded bg-slate-100 px-1">delay_seconds</code>.
            </p>
          )}
          {changes.data.recent.length ? (
            <ul className="space-y-1 text-sm" aria-label="Last changes runs">
              {changes.data.recent.map((run) => (
                <li key={run.run_id} className="flex flex-wrap items-center gap-2">
                  <Link href={`/runs/${run.run_id}`} className="text-brand-700 hover:underline">
                    Run {run.run_id}
                  </Link>
                  <StatusBadge status={run.status} />
                  <span className="text-slate-600">
                    {run.url_count} URL{run.url_count === 1 ? "" : "s"}, opened <LocalTime value={run.created_at} />
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The site's receivers, and a new one (its secret shown once). */
function Receivers({ siteId }: { siteId: number }) {
  const receivers = useQuery({ queryKey: receiversQueryKey(siteId), queryFn: () => api<{ data: ChangeReceiver[] }>(`/sites/${siteId}/change-receivers`) });
  const [created, setCreated] = useState<CreatedChangeReceiver | null>(null);
  return (
    <section aria-labelledby="change-receivers" className="space-y-3">
      <h3 id="change-receivers" className="text-sm font-semibold text-slate-900">
        Change receivers
      </h3>
      <p className="text-sm text-slate-600">
        Each receiver is an address to paste into Shopify, Contentful, Sanity, Strapi, Netlify or Vercel. Every delivery is checked with that system's own signature, mapped to this site's URLs through
        the receiver's URL templates, and queued as changes; its last 50 deliveries are kept with what they came to and why.
      </p>
      <Can atLeast="admin">
        <NewReceiver siteId={siteId} onCreated={setCreated} />
      </Can>
      {created?.secret ? (
        <ShownOnce
          title={`${KIND_NAMES[created.kind]} receiver created: its secret`}
          warning="Copy it now and paste it into the system beside the receiver's URL: you will not see it again. Rotating it makes a new one."
          label="Change receiver secret"
          value={created.secret}
          onDone={() => setCreated(null)}
        />
      ) : null}
      {receivers.isPending ? (
        <Loading label="Loading receivers…" />
      ) : receivers.isError ? (
        <ErrorNote error={receivers.error} />
      ) : receivers.data.data.length === 0 ? (
        <EmptyState title="No change receiver yet">
          <Can atLeast="admin" otherwise="An admin or owner of the organization creates one for the system this site is edited in.">
            Create one for the system this site is edited in, then paste its URL and secret there.
          </Can>
        </EmptyState>
      ) : (
        <ul className="space-y-4">
          {receivers.data.data.map((receiver) => (
            <li key={receiver.id}>
              <ReceiverItem siteId={siteId} receiver={receiver} onSecret={setCreated} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NewReceiver({ siteId, onCreated }: { siteId: number; onCreated: (created: CreatedChangeReceiver) => void }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>("shopify");
  const [secret, setSecret] = useState("");
  const create = useMutation({
    mutationFn: () => api<CreatedChangeReceiver>(`/sites/${siteId}/change-receivers`, { method: "POST", body: { kind, ...(OWN_SECRET[kind] && secret.trim() ? { secret: secret.trim() } : {}) } }),
    onSuccess: (created) => {
      setSecret("");
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: receiversQueryKey(siteId) });
    },
  });
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <div className="space-y-1">
        <label htmlFor="receiver-kind" className="block text-sm font-medium text-slate-700">
          System
        </label>
        <select
          id="receiver-kind"
          className={`${inputClass} w-auto`}
          value={kind}
          onChange={(event) => {
            setKind(event.target.value as Kind);
            create.reset();
          }}
        >
          {KINDS.map((value) => (
            <option key={value} value={value}>
              {KIND_NAMES[value]}
            </option>
          ))}
        </select>
      </div>
      {OWN_SECRET[kind] ? (
        <div className="min-w-[16rem] flex-1">
          <Field
            label={`${KIND_NAMES[kind]}'s own secret (optional)`}
            hint={`${OWN_SECRET[kind]} Empty: Preheat makes one, shown once.`}
            error={create.error instanceof ApiError ? create.error.field("secret") : undefined}
          >
            {(a) => <TextInput {...a} value={secret} autoComplete="off" onChange={(event) => setSecret(event.target.value)} />}
          </Field>
        </div>
      ) : null}
      <Button type="submit" busy={create.isPending}>
        Create receiver
      </Button>
      <div className="w-full">
        <ErrorNote error={create.error} />
      </div>
    </form>
  );
}
