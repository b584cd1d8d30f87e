"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { Can } from "@/components/dashboard/role";

/** How hard Preheat may warm the site: its owner's limits, held by the whole service. */
export function PacePanel({ site, maxConcurrency }: { site: Site; maxConcurrency: number }) {
  const queryClient = useQueryClient();
  const [concurrency, setConcurrency] = useState(String(site.max_concurrency));
  const [rate, setRate] = useState(site.max_requests_per_second === null ? "" : String(site.max_requests_per_second));
  const save = useMutation({
    mutationFn: () =>
      api<Site>(`/sites/${site.id}`, {
        method: "PATCH",
        body: { max_concurrency: Number(concurrency), max_requests_per_second: rate.trim() === "" ? null : Number(rate) },
      }),
    onSuccess: (updated) => queryClient.setQueryData(["sites", site.id], updated),
  });
  const fieldError = (name: string) => (save.error instanceof ApiError ? save.error.field(name) : undefined);

  return (
    <Card title="Pace">
      <p className="mb-4 text-sm text-slate-600">
        Preheat never sends this site more calls at once than you allow here, from all of its workers and regions together. It also slows down on its own when the site's responses get much slower, and
        when the site answers 429 or 503 with Retry-After.
      </p>
      <form
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <Field label="Calls at once" hint={`1 to ${maxConcurrency}.`} error={fieldError("max_concurrency")}>
          {(a) => <TextInput {...a} type="number" min={1} max={maxConcurrency} step={1} required value={concurrency} onChange={(e) => setConcurrency(e.target.value)} />}
        </Field>
        <Field label="Calls per second (optional)" hint="Empty: no rate cap. 0.5 is one call every 2 seconds." error={fieldError("max_requests_per_second")}>
          {(a) => <TextInput {...a} type="number" min={0} step="any" value={rate} onChange={(e) => setRate(e.target.value)} />}
        </Field>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Can atLeast="admin">
            <Button type="submit" busy={save.isPending}>
              Save pace
            </Button>
          </Can>
          {save.isSuccess ? (
            <p role="status" className="text-sm text-emerald-700">
              Saved: runs in progress take it up within seconds.
            </p>
          ) : null}
        </div>
        {save.error && !fieldError("max_concurrency") && !fieldError("max_requests_per_second") ? <ErrorNote error={save.error} /> : null}
      </form>
    </Card>
  );
}
