"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { TrafficSource } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { TRAFFIC_SOURCE_KINDS, type TrafficSourceKind } from "@/lib/core/traffic";
import { createTrafficSourceBody, DEFAULT_READ_EVERY_HOURS } from "@/lib/traffic/schemas";
import { trafficSourcesQueryKey } from "./source-item";
import { draftIsFetched, EMPTY_DRAFT, KIND_NAMES, SOURCE_FIELDS, type SourceDraft, sourceBody } from "./traffic-figures";

/** The `client_email` of a service-account key, to say which account was picked; null when the text is not such a key. */
function clientEmailOf(text: string): string | null {
  try {
    const key = JSON.parse(text) as { client_email?: unknown };
    return typeof key.client_email === "string" ? key.client_email : null;
  } catch {
    return null;
  }
}

/** A new traffic source: an access log (uploaded, or fetched from its URL), Plausible or GA4, each kind with its own fields. */
export function NewSource({ siteId, domain }: { siteId: number; domain: string }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<SourceDraft>(EMPTY_DRAFT);
  const [keyFile, setKeyFile] = useState<{ name: string; text: string } | null>(null);
  const [created, setCreated] = useState<TrafficSource | null>(null);
  // A new key picker after each source added: a file input cannot be emptied from state.
  const [pickers, setPickers] = useState(0);
  const change = (part: Partial<SourceDraft>) => {
    setDraft((current) => ({ ...current, ...part }));
    setCreated(null);
  };
  const body = sourceBody(keyFile ? { ...draft, serviceAccountKey: keyFile.text } : draft);
  const errors = useFormErrors(body, SOURCE_FIELDS, checkWith(createTrafficSourceBody, body, SOURCE_FIELDS));
  const create = useMutation({
    mutationFn: (sent: typeof body) => api<TrafficSource>(`/sites/${siteId}/traffic-sources`, { method: "POST", body: sent }),
    onSuccess: (source) => {
      setDraft({ ...EMPTY_DRAFT, kind: draft.kind });
      setKeyFile(null);
      setPickers((count) => count + 1);
      errors.clear();
      setCreated(source);
      void queryClient.invalidateQueries({ queryKey: trafficSourcesQueryKey(siteId) });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const kindId = useId();
  const fetched = draftIsFetched(draft);
  return (
    <form
      aria-labelledby={`${kindId}-title`}
      className="space-y-4 rounded-md border border-slate-200 p-3 sm:p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) create.mutate(body);
      }}
    >
      <h4 id={`${kindId}-title`} className="font-semibold text-slate-900">
        Add a source
      </h4>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={kindId} className="block text-sm font-medium text-slate-800">
            Kind
          </label>
          <select
            id={kindId}
            className={inputClass}
            value={draft.kind}
            onChange={(event) => {
              change({ kind: event.target.value as TrafficSourceKind });
              create.reset();
            }}
          >
            {TRAFFIC_SOURCE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
        </div>
        <Field label="Name (optional)" hint={`Empty: "${KIND_NAMES[draft.kind]}".`} error={errors.error("name")}>
          {(a) => <TextInput {...a} value={draft.name} maxLength={100} autoComplete="off" onChange={(event) => change({ name: event.target.value })} />}
        </Field>
        {draft.kind === "access_log" ? (
          <Field label="Log URL (optional)" hint="Where Preheat fetches the log from (public addresses only; gzip accepted). Leave empty to upload the log instead." error={errors.error("url")}>
            {(a) => <TextInput {...a} type="url" inputMode="url" value={draft.url} placeholder={`https://${domain}/logs/access.log.gz`} onChange={(event) => change({ url: event.target.value })} />}
          </Field>
        ) : null}
        {draft.kind === "plausible" ? (
          <>
            <Field label="Plausible site id" hint="The domain the site was added to Plausible with." error={errors.error("site_id")}>
              {(a) => <TextInput {...a} value={draft.siteId} placeholder={domain} autoComplete="off" onChange={(event) => change({ siteId: event.target.value })} />}
            </Field>
            <Field label="Stats API key" hint="Plausible → Settings → API keys. Sealed at rest, never shown again." error={errors.error("api_key")}>
              {(a) => <TextInput {...a} type="password" value={draft.apiKey} autoComplete="new-password" onChange={(event) => change({ apiKey: event.target.value })} />}
            </Field>
          </>
        ) : null}
        {draft.kind === "ga4" ? (
          <Field label="GA4 property id" hint="Digits only: Admin → Property details." error={errors.error("property_id")}>
            {(a) => <TextInput {...a} inputMode="numeric" value={draft.propertyId} placeholder="123456789" autoComplete="off" onChange={(event) => change({ propertyId: event.target.value })} />}
          </Field>
        ) : null}
        {fetched ? (
          <Field
            label="Read every (hours)"
            hint={`1 to 720; ${DEFAULT_READ_EVERY_HOURS} reads it daily. Empty: only when you ask (Read now). Added sources are read at once.`}
            error={errors.error("read_every_hours")}
          >
            {(a) => <TextInput {...a} type="number" min={1} max={720} step={1} value={draft.everyHours} onChange={(event) => change({ everyHours: event.target.value })} />}
          </Field>
        ) : null}
      </div>
      {draft.kind === "ga4" ? (
        <ServiceAccountKey
          key={pickers}
          pasted={draft.serviceAccountKey}
          file={keyFile}
          error={errors.error("service_account_key")}
          onPaste={(text) => change({ serviceAccountKey: text })}
          onFile={(file) => {
            setKeyFile(file);
            setCreated(null);
          }}
        />
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={create.isPending}>
          Add source
        </Button>
        {created ? (
          <p role="status" className="text-sm text-emerald-700">
            {created.name} added: {created.status === "reading" ? "its first read is under way, below." : "upload its log below, or send it with POST …/upload from the server that writes it."}
          </p>
        ) : null}
      </div>
      <FormProblems errors={errors} />
    </form>
  );
}

/** The service account's JSON key, picked as a file (its text is read here, never shown) or pasted. */
function ServiceAccountKey({
  pasted,
  file,
  error,
  onPaste,
  onFile,
}: {
  pasted: string;
  file: { name: string; text: string } | null;
  error: string | undefined;
  onPaste: (text: string) => void;
  onFile: (file: { name: string; text: string } | null) => void;
}) {
  const fileEmail = file ? clientEmailOf(file.text) : null;
  return (
    <div className="space-y-3">
      <Field
        label="Service-account key file (JSON)"
        hint="Google Cloud → IAM → Service accounts → Keys → Add key (JSON). The account needs the Viewer role on the property. Sealed at rest, never shown again: the source shows its client_email only."
        error={error}
      >
        {(a) => (
          <input
            {...a}
            type="file"
            accept=".json,application/json"
            className="block w-full text-sm text-slate-600 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 file:shadow-sm hover:file:bg-slate-50"
            onChange={async (event) => {
              const chosen = event.target.files?.[0];
              onFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
            }}
          />
        )}
      </Field>
      {file ? (
        <p role="status" className="text-sm text-slate-700">
          {file.name}: {fileEmail ? <>the key of {fileEmail}.</> : "not a service account's JSON key, it seems (no client_email in it)."}
        </p>
      ) : (
        <Field label="Or paste the key's JSON" hint="The whole file's text, braces included.">
          {(a) => (
            <textarea
              {...a}
              rows={4}
              spellCheck={false}
              autoComplete="off"
              className={`${inputClass} font-mono text-xs`}
              value={pasted}
              placeholder='{"type": "service_account", "client_email": "…", "private_key": "…", …}'
              onChange={(event) => onPaste(event.target.value)}
            />
          )}
        </Field>
      )}
    </div>
  );
}
