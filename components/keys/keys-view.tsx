"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { createApiKeyBody } from "@/lib/auth/create-key-body";
import { Can } from "@/components/dashboard/role";
import type { ApiKeyView, Page, Site } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { ShownOnce } from "@/components/ui/shown-once";
import { Field, TextInput } from "@/components/ui/field";
import { SCOPE_MEANINGS, SCOPE_PRESETS, SCOPES } from "@/lib/auth/scopes";
import { KeysTable } from "./keys-table";

const keysKey = ["api-keys"] as const;
const sitesKey = ["sites", "list"] as const;

/** The organization's sites, to choose those a key is limited to and to name them in the list. */
function useSites() {
  return useQuery({ queryKey: sitesKey, queryFn: () => api<Page<Site>>("/sites?limit=100") });
}

/** "All sites", or only some: a key limited to sites sees nothing else and cannot register sites nor manage webhooks. */
function SiteChoices({ limited, onLimited, chosen, onChosen, error }: { limited: boolean; onLimited: (on: boolean) => void; chosen: number[]; onChosen: (ids: number[]) => void; error?: string }) {
  const sites = useSites();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Sites</legend>
      <p className="text-xs text-slate-500">
        A key limited to some sites sees only them, their sitemaps, boosts, hooks and runs (any other answers 404), and cannot register a site nor manage webhooks, which concern the whole
        organization.
      </p>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {(
          [
            [false, "All sites"],
            [true, "Only some sites"],
          ] as const
        ).map(([value, label]) => (
          <label key={label} className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="key-sites" className="size-4 border-slate-300 text-brand-600 focus:ring-brand-500" checked={limited === value} onChange={() => onLimited(value)} />
            {label}
          </label>
        ))}
      </div>
      {limited ? (
        sites.isPending ? (
          <Loading />
        ) : sites.error ? (
          <ErrorNote error={sites.error} />
        ) : sites.data.data.length === 0 ? (
          <p className="text-sm text-slate-600">The organization has no site yet.</p>
        ) : (
          <CheckboxGroup legend="Limited to" hint="The key sees only the sites chosen here." error={error}>
            {sites.data.data.map((site) => (
              <Check key={site.id} label={site.domain} name="site_ids" checked={chosen.includes(site.id)} onChange={(on) => onChosen(toggle(chosen, site.id, on))} />
            ))}
          </CheckboxGroup>
        )
      ) : null}
      {!limited && error ? <p className="text-sm text-red-600">{error}</p> : null}
    </fieldset>
  );
}

const KEY_FIELDS = ["name", "scopes", "expires_at", "site_ids"];

const sameScopes = (chosen: readonly string[], preset: readonly string[]) => chosen.length === preset.length && preset.every((scope) => chosen.includes(scope));

function NewKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  // None by default: a key gets what its job needs (a preset, or the boxes), never everything unasked.
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState("");
  const [limited, setLimited] = useState(false);
  const [siteIds, setSiteIds] = useState<number[]>([]);
  // A date picked in the form means the end of that day, in the viewer's time zone.
  const body = { name, scopes, expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null, site_ids: limited ? siteIds : null };
  const errors = useFormErrors(body, KEY_FIELDS, checkWith(createApiKeyBody, body, KEY_FIELDS));
  const create = useMutation({
    mutationFn: (sent: typeof body) => api<{ key: string; api_key: ApiKeyView }>("/api/dashboard/keys", { method: "POST", body: sent }),
    onSuccess: ({ key }) => {
      setName("");
      setSiteIds([]);
      setLimited(false);
      errors.clear();
      onCreated(key);
      queryClient.invalidateQueries({ queryKey: keysKey });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const fieldError = errors.error;
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) create.mutate(body);
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Key name" hint="Where it is used, e.g. CI or Deploy hook." error={fieldError("name")}>
          {(a) => <TextInput {...a} name="key-name" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Expires on (optional)" error={fieldError("expires_at")}>
          {(a) => <TextInput {...a} type="date" name="expires" value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
      </div>
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="float-left mr-2 text-sm text-slate-700">Start from:</legend>
        {SCOPE_PRESETS.map((preset) => (
          <Button key={preset.label} type="button" variant="secondary" aria-pressed={sameScopes(scopes, preset.scopes)} onClick={() => setScopes([...preset.scopes])}>
            {preset.label}
          </Button>
        ))}
      </fieldset>
      <CheckboxGroup legend="Scopes" hint="A key needs at least one; give it only what its job needs." error={fieldError("scopes")}>
        {SCOPES.map((scope) => (
          <Check
            key={scope}
            label={
              <span>
                <code>{scope}</code> <span className="text-slate-600">{SCOPE_MEANINGS[scope]}</span>
              </span>
            }
            name="scopes"
            checked={scopes.includes(scope)}
            onChange={(on) => setScopes(toggle(scopes, scope, on))}
          />
        ))}
      </CheckboxGroup>
      <SiteChoices limited={limited} onLimited={setLimited} chosen={siteIds} onChosen={setSiteIds} error={fieldError("site_ids")} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={create.isPending}>
          Create key
        </Button>
        <FormProblems errors={errors} />
      </div>
    </form>
  );
}

function NewKeyNotice({ value, onDone }: { value: string; onDone: () => void }) {
  return <ShownOnce title="Your new API key" warning="Copy it now: it is shown only once, and Preheat keeps only a hash of it." label="New API key" value={value} onDone={onDone} />;
}

export function KeysView() {
  const [created, setCreated] = useState<string | null>(null);
  const keys = useQuery({ queryKey: keysKey, queryFn: () => api<{ data: ApiKeyView[] }>("/api/dashboard/keys") });
  const sites = useSites();
  const domains = new Map((sites.data?.data ?? []).map((site) => [site.id, site.domain]));
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        subtitle={
          <>
            Keys authenticate calls to the REST API (<code>Authorization: Bearer …</code>), each with the scopes it needs, for every site of the organization or only some of them.
          </>
        }
      />
      {created ? <NewKeyNotice value={created} onDone={() => setCreated(null)} /> : null}
      <Can atLeast="admin">
        <Card title="New key">
          <NewKeyForm onCreated={setCreated} />
        </Card>
      </Can>
      <Card title="Your keys">
        {keys.isPending ? (
          <Loading />
        ) : keys.error ? (
          <ErrorNote error={keys.error} />
        ) : keys.data.data.length === 0 ? (
          <EmptyState title="No API keys yet">
            <Can atLeast="admin" otherwise="An admin or the owner of the organization creates them: ask one for a key with the scopes you need.">
              Create one above to call the API from scripts and CI.
            </Can>
          </EmptyState>
        ) : (
          <KeysTable
            keys={keys.data.data}
            options={{
              revokePath: (id) => `/api/dashboard/keys/${id}`,
              queryKey: keysKey,
              sitesOf: (ids) => (ids ? ids.map((id) => domains.get(id) ?? `site ${id} (deleted)`).join(", ") : "All sites"),
              noCreator: "the operator",
              revokeGate: (button) => <Can atLeast="admin">{button}</Can>,
              rowTestId: "api-key-row",
            }}
          />
        )}
      </Card>
    </div>
  );
}
