"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { count } from "@/components/runs/format";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field, TextInput } from "@/components/ui/field";
import { REGIONS } from "@/lib/core/regions";
import type { PlanRecord } from "./types";

const plansKey = ["operator", "plans"] as const;

type Draft = { name: string; monthly_calls: string; sites: string; max_site_concurrency: string; regions: string[] | null; run_results_max: string; verification: boolean; run_retention_days: string };

const EMPTY: Draft = { name: "", monthly_calls: "", sites: "", max_site_concurrency: "", regions: null, run_results_max: "", verification: true, run_retention_days: "" };

function draftOf(plan: PlanRecord): Draft {
  const l = plan.limits;
  return {
    name: plan.name,
    monthly_calls: String(l.monthly_calls),
    sites: l.sites === null ? "" : String(l.sites),
    max_site_concurrency: String(l.max_site_concurrency),
    regions: l.regions,
    run_results_max: String(l.run_results_max),
    verification: l.verification,
    run_retention_days: l.run_retention_days === null ? "" : String(l.run_retention_days),
  };
}

/** An empty box is null: the service's configuration (or no cap); the server checks the rest. */
const numberOrNull = (text: string) => (text.trim() === "" ? null : Number(text));

function bodyOf(draft: Draft) {
  return {
    name: draft.name,
    monthly_calls: numberOrNull(draft.monthly_calls),
    sites: numberOrNull(draft.sites),
    max_site_concurrency: numberOrNull(draft.max_site_concurrency),
    regions: draft.regions,
    run_results_max: numberOrNull(draft.run_results_max),
    verification: draft.verification,
    run_retention_days: numberOrNull(draft.run_retention_days),
  };
}

const PLAN_FIELDS = ["name", "monthly_calls", "sites", "max_site_concurrency", "regions", "run_results_max", "verification", "run_retention_days"];

function PlanForm({ plan, onDone }: { plan?: PlanRecord; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(plan ? draftOf(plan) : EMPTY);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const body = bodyOf(draft);
  const errors = useFormErrors(body, PLAN_FIELDS);
  const save = useMutation({
    mutationFn: (sent: typeof body) => api<PlanRecord>(plan ? `/api/operator/plans/${plan.id}` : "/api/operator/plans", { method: plan ? "PATCH" : "POST", body: sent }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: plansKey });
      if (!plan) setDraft(EMPTY);
      errors.clear();
      onDone();
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const error = errors.error;
  const number = (label: string, field: keyof Draft, hint: string) => (
    <Field label={label} hint={hint} error={error(field)}>
      {(a) => <TextInput {...a} inputMode="numeric" value={draft[field] as string} onChange={(e) => set({ [field]: e.target.value })} />}
    </Field>
  );
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) save.mutate(body);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="Plan name" error={error("name")}>
          {(a) => <TextInput {...a} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
        </Field>
        {number("Calls a month", "monthly_calls", "The quota, per calendar month (UTC). Empty: the service's default.")}
        {number("Sites", "sites", "Empty: no cap.")}
        {number("Highest concurrency per site", "max_site_concurrency", "Empty: the service's highest (PREHEAT_SITE_MAX_CONCURRENCY).")}
        {number("Result rows per run", "run_results_max", "A run's calls kept row by row (its first ones). Empty: the service's default.")}
        {number("Keep runs (days)", "run_retention_days", "Empty: kept until their site or boost is deleted.")}
      </div>
      <CheckboxGroup legend="Regions" hint="The regions boosts and warms may use." error={error("regions")}>
        <Check label="Every region" checked={draft.regions === null} onChange={(on) => set({ regions: on ? null : [] })} />
        {REGIONS.map((region) => (
          <Check
            key={region.code}
            label={`${region.name} (${region.code})`}
            disabled={draft.regions === null}
            checked={draft.regions === null || draft.regions.includes(region.code)}
            onChange={(on) => set({ regions: toggle(draft.regions ?? [], region.code, on) })}
          />
        ))}
      </CheckboxGroup>
      <Check label="Runs may verify (verify: true or visitors)" checked={draft.verification} onChange={(on) => set({ verification: on })} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={save.isPending}>
          {plan ? "Save plan" : "Create plan"}
        </Button>
        {plan ? (
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
        <FormProblems errors={errors} />
      </div>
    </form>
  );
}

function PlanRow({ plan }: { plan: PlanRecord }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => api(`/api/operator/plans/${plan.id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plansKey }),
  });
  const l = plan.limits;
  if (editing)
    return (
      <li className="py-4">
        <PlanForm plan={plan} onDone={() => setEditing(false)} />
      </li>
    );
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4" data-testid="plan-row">
      <div className="space-y-1 text-sm">
        <p className="font-semibold">
          {plan.name} <span className="font-normal text-slate-500">· {plan.organizations === 1 ? "1 organization" : `${plan.organizations} organizations`}</span>
        </p>
        <p className="text-slate-600">
          {count(l.monthly_calls)} calls a month · {l.sites === null ? "any number of sites" : `${l.sites} sites`} · up to {l.max_site_concurrency} calls at once per site ·{" "}
          {l.regions ? `regions ${l.regions.join(", ")}` : "every region"} · {count(l.run_results_max)} result rows per run · verification {l.verification ? "allowed" : "not allowed"} · runs kept{" "}
          {l.run_retention_days === null ? "until deleted" : `${l.run_retention_days} days`}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setEditing(true)}>
          Edit
        </Button>
        {plan.organizations === 0 ? <ConfirmButton label="Delete" confirmLabel="Delete plan" question={`Delete ${plan.name}?`} busy={remove.isPending} onConfirm={() => remove.mutate()} /> : null}
      </div>
      <ErrorNote error={remove.error} />
    </li>
  );
}

export function PlansView() {
  const plans = useQuery({ queryKey: plansKey, queryFn: () => api<{ data: PlanRecord[] }>("/api/operator/plans") });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Plans"
        subtitle="A plan names what an organization may use; a request beyond it is refused with 403 plan_limit. An organization on no plan has the service's configuration. Changing a plan changes it for every organization on it at once."
      />
      <Card title="Plans">
        {plans.isPending ? (
          <Loading />
        ) : plans.error ? (
          <ErrorNote error={plans.error} />
        ) : plans.data.data.length === 0 ? (
          <EmptyState title="No plans yet">Every organization has the service's configuration until you create a plan and move it there.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100">
            {plans.data.data.map((plan) => (
              <PlanRow key={plan.id} plan={plan} />
            ))}
          </ul>
        )}
      </Card>
      <Card title="New plan">
        <PlanForm onDone={() => {}} />
      </Card>
    </div>
  );
}
