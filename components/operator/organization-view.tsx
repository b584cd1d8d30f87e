"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { count } from "@/components/runs/format";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Check } from "@/components/ui/choices";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field, inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { CallsThisMonth, OrganizationState } from "./organizations-view";
import type { OrganizationDetail, PlanRecord } from "./types";

const organizationKey = (id: number) => ["operator", "organizations", "detail", id] as const;

/** After a change, the organization, the list and the plans' counts are read again. */
function useRefresh(id: number) {
  const queryClient = useQueryClient();
  return (detail: OrganizationDetail) => {
    queryClient.setQueryData(organizationKey(id), detail);
    queryClient.invalidateQueries({ queryKey: ["operator", "organizations"] });
    queryClient.invalidateQueries({ queryKey: ["operator", "plans"] });
  };
}

function PlanCard({ organization }: { organization: OrganizationDetail }) {
  const plans = useQuery({ queryKey: ["operator", "plans"], queryFn: () => api<{ data: PlanRecord[] }>("/api/operator/plans") });
  const [chosen, setChosen] = useState(String(organization.plan.id ?? ""));
  const refresh = useRefresh(organization.id);
  const change = useMutation({
    mutationFn: () => api<OrganizationDetail>(`/api/operator/organizations/${organization.id}/plan`, { method: "PUT", body: { plan_id: chosen ? Number(chosen) : null } }),
    onSuccess: refresh,
  });
  return (
    <Card title="Plan">
      <p className="mb-3 text-sm text-slate-600">
        On <strong>{organization.plan.name}</strong>. A request beyond the plan's limits is refused with 403 <code>plan_limit</code>; its sites' concurrency comes down to the plan's at once.
      </p>
      {plans.error ? <ErrorNote error={plans.error} /> : null}
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          change.mutate();
        }}
      >
        <div className="min-w-64">
          <Field label="Change plan" error={change.error instanceof ApiError ? change.error.field("plan_id") : undefined}>
            {(a) => (
              <select {...a} className={inputClass} value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={plans.isPending}>
                <option value="">No plan: the service's configuration (default)</option>
                {plans.data?.data.map((plan) => (
                  <option key={plan.id} value={String(plan.id)}>
                    {plan.name} ({count(plan.limits.monthly_calls)} calls a month)
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Button type="submit" busy={change.isPending} disabled={chosen === String(organization.plan.id ?? "")}>
          Save plan
        </Button>
      </form>
      {change.isSuccess ? (
        <p role="status" className="mt-2 text-sm text-green-700">
          Now on {change.data.plan.name}.
        </p>
      ) : null}
      {/* Said once: under the field when it is the plan's, here otherwise. */}
      <ErrorNote error={change.error instanceof ApiError && change.error.field("plan_id") ? null : change.error} />
    </Card>
  );
}

const REASON_FIELDS = ["reason"];

function SuspensionCard({ organization }: { organization: OrganizationDetail }) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const [blockNew, setBlockNew] = useState(false);
  const refresh = useRefresh(organization.id);
  const body = { reason, block_new_organizations: blockNew };
  const errors = useFormErrors(body, REASON_FIELDS);
  const suspend = useMutation({
    mutationFn: (sent: typeof body) => api<OrganizationDetail & { runs_stopped: number }>(`/api/operator/organizations/${organization.id}/suspend`, { method: "POST", body: sent }),
    onSuccess: (detail) => {
      setAsking(false);
      setReason("");
      setBlockNew(false);
      errors.clear();
      refresh(detail);
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const resume = useMutation({
    mutationFn: () => api<OrganizationDetail>(`/api/operator/organizations/${organization.id}/resume`, { method: "POST" }),
    onSuccess: refresh,
  });
  if (organization.suspended)
    return (
      <Card title="Suspended">
        <p className="text-sm text-slate-700">
          Since <LocalTime value={organization.suspended.since} />. Its members read: <q className="font-medium">{organization.suspended.reason}</q>
        </p>
        <p className="mt-2 text-sm text-slate-600">
          Its keys answer 403 account_suspended, its schedules and hooks start nothing.
          {organization.suspended.block_new_organizations ? " Its owners and admins may not create another organization." : ""} Resuming opens everything again; stopped runs stay stopped.
        </p>
        <div className="mt-3">
          <ConfirmButton label="Resume" confirmLabel="Resume organization" question={`Resume ${organization.name}?`} busy={resume.isPending} onConfirm={() => resume.mutate()} />
        </div>
        <ErrorNote error={resume.error} />
      </Card>
    );
  return (
    <Card title="Suspension">
      {resume.isSuccess ? (
        <p role="status" className="mb-2 text-sm text-green-700">
          Resumed: its keys, schedules and members' pages work again.
        </p>
      ) : null}
      <p className="text-sm text-slate-600">
        Suspending: its API keys answer 403 <code>account_suspended</code> from the next request on, its schedules and deploy hooks start nothing, its pending and running runs stop now, and its
        members see the reason on every page of their dashboard.
      </p>
      {asking ? (
        <form
          className="mt-3 space-y-3"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (errors.attempt()) suspend.mutate(body);
          }}
        >
          <Field label="Reason shown to its members" hint="One sentence they can act on, e.g. the invoice to pay or whom to contact." error={errors.error("reason")}>
            {(a) => <textarea {...a} className={inputClass} rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
          </Field>
          <Check label="Its owners and admins may not create a new organization either, until it is resumed" checked={blockNew} onChange={setBlockNew} name="block-new-organizations" />
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-slate-700">Suspend {organization.name} now?</span>
            <Button type="submit" variant="danger" busy={suspend.isPending} disabled={!reason.trim()}>
              Suspend organization
            </Button>
            <Button variant="ghost" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
          <FormProblems errors={errors} />
        </form>
      ) : (
        <div className="mt-3">
          <Button variant="secondary" onClick={() => setAsking(true)}>
            Suspend…
          </Button>
        </div>
      )}
    </Card>
  );
}

export function OrganizationView({ id }: { id: number }) {
  const organization = useQuery({ queryKey: organizationKey(id), queryFn: () => api<OrganizationDetail>(`/api/operator/organizations/${id}`) });
  if (organization.isPending) return <Loading />;
  if (organization.error) return <ErrorNote error={organization.error} />;
  const o = organization.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title={o.name}
        subtitle={
          <>
            <Link href="/operator" className="text-brand-700 underline">
              Organizations
            </Link>{" "}
            · #{o.id} · created <LocalTime value={o.created_at} /> · <OrganizationState organization={o} />
          </>
        }
      />
      <Card title="This month">
        <dl className="grid gap-4 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-500">Calls this month / quota</dt>
            <dd className="text-lg font-semibold">
              <CallsThisMonth organization={o} />
            </dd>
            <dd className="text-xs text-slate-500">Planned calls of the runs created since the 1st (UTC), as the quota counts them.</dd>
          </div>
          <div>
            <dt className="text-slate-500">Sites</dt>
            <dd className="text-lg font-semibold tabular-nums">{o.sites}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Members</dt>
            <dd className="text-lg font-semibold tabular-nums">{o.members}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Last activity</dt>
            <dd className="text-lg font-semibold">
              <LocalTime value={o.last_activity_at} empty="never" />
            </dd>
            <dd className="text-xs text-slate-500">A run created, a key used or a member's page seen.</dd>
          </div>
        </dl>
      </Card>
      <PlanCard key={`plan-${o.plan.id}`} organization={o} />
      <SuspensionCard organization={o} />
      <Card title="Members">
        <ul className="divide-y divide-slate-100 text-sm">
          {o.member_list.map((member) => (
            <li key={member.email} className="flex justify-between py-2">
              <span>{member.email}</span>
              <span className="text-slate-500">{member.role}</span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
