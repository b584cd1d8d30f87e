"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { Problems } from "@/lib/core/field-errors";
import type { Site } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { useCan } from "@/components/dashboard/role";

const PACE_FIELDS = ["max_concurrency", "max_requests_per_second"];

/** The form's own check, in the words the owner reads beside the fields. Above the highest figure, the server's refusal says why (the operator's or the plan's limit). */
function paceProblems(body: { max_concurrency: number; max_requests_per_second: number | null }): Problems {
  const problems: Problems = {};
  if (!Number.isInteger(body.max_concurrency) || body.max_concurrency < 1) problems.max_concurrency = "Enter a whole number of calls, 1 or more.";
  if (body.max_requests_per_second !== null && !(body.max_requests_per_second > 0)) problems.max_requests_per_second = "Enter a number of calls per second above 0, or leave it empty for no cap.";
  return problems;
}

const PACE_INTRO =
  "Preheat never sends this site more calls at once than you allow here, from all of its workers and regions together. It also slows down on its own when the site's responses get much slower, and when the site answers 429 or 503 with Retry-After.";

/** How hard Preheat may warm the site: its owner's limits, held by the whole service. Admins change them; the others read them. */
export function PacePanel({ site, maxConcurrency }: { site: Site; maxConcurrency: number }) {
  if (!useCan("admin")) return <PaceFigures site={site} />;
  return <PaceForm site={site} maxConcurrency={maxConcurrency} />;
}

function PaceFigures({ site }: { site: Site }) {
  return (
    <Card title="Pace">
      <p className="mb-4 text-sm text-slate-600">{PACE_INTRO}</p>
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500">Calls at once</dt>
          <dd className="font-medium text-slate-900">{site.max_concurrency}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Calls per second</dt>
          <dd className="font-medium text-slate-900">{site.max_requests_per_second === null ? "No cap" : site.max_requests_per_second}</dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-500">An admin or owner of the organization changes the pace.</p>
    </Card>
  );
}

function PaceForm({ site, maxConcurrency }: { site: Site; maxConcurrency: number }) {
  const queryClient = useQueryClient();
  const [concurrency, setConcurrency] = useState(String(site.max_concurrency));
  const [rate, setRate] = useState(site.max_requests_per_second === null ? "" : String(site.max_requests_per_second));
  const body = { max_concurrency: concurrency.trim() === "" ? Number.NaN : Number(concurrency), max_requests_per_second: rate.trim() === "" ? null : Number(rate) };
  const errors = useFormErrors(body, PACE_FIELDS, () => paceProblems(body));
  const save = useMutation({
    mutationFn: (sent: typeof body) => api<Site>(`/sites/${site.id}`, { method: "PATCH", body: sent }),
    onSuccess: (updated) => queryClient.setQueryData(["sites", site.id], updated),
    onError: (error, sent) => errors.refused(sent, error),
  });
  const fieldError = errors.error;

  return (
    <Card title="Pace">
      <p className="mb-4 text-sm text-slate-600">{PACE_INTRO}</p>
      <form
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (errors.attempt()) save.mutate(body);
        }}
        noValidate
      >
        <Field label="Calls at once" hint={`1 to ${maxConcurrency}.`} error={fieldError("max_concurrency")}>
          {(a) => (
            <TextInput
              {...a}
              type="number"
              min={1}
              max={maxConcurrency}
              step={1}
              required
              value={concurrency}
              onChange={(e) => {
                setConcurrency(e.target.value);
                save.reset();
              }}
            />
          )}
        </Field>
        <Field label="Calls per second (optional)" hint="Empty: no rate cap. 0.5 is one call every 2 seconds." error={fieldError("max_requests_per_second")}>
          {(a) => (
            <TextInput
              {...a}
              type="number"
              min={0}
              step="any"
              value={rate}
              onChange={(e) => {
                setRate(e.target.value);
                save.reset();
              }}
            />
          )}
        </Field>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" busy={save.isPending}>
            Save pace
          </Button>
          {save.isSuccess ? (
            <p role="status" className="text-sm text-emerald-700">
              Saved: runs in progress take it up within seconds.
            </p>
          ) : null}
        </div>
        <div className="sm:col-span-2">
          <FormProblems errors={errors} />
        </div>
      </form>
    </Card>
  );
}
