"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { ApiKeyView } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { Field, TextInput } from "@/components/ui/field";
import { ShownOnce } from "@/components/ui/shown-once";
import { SCOPES } from "@/lib/auth/scopes";
import { KeysTable } from "@/components/keys/keys-table";
import { TableScroll } from "@/components/ui/table-scroll";

type UserKeys = { email: string; organization_id: number; data: ApiKeyView[] };

const keysKey = (email: string) => ["operator", "keys", email] as const;

/** "3, 5" → [3, 5]; empty → null (every site). The server checks each is one of the organization's. */
function siteIdsOf(text: string): number[] | null {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length ? parts.map(Number) : null;
}

const OPERATOR_KEY_FIELDS = ["email", "name", "expires_at", "site_ids", "scopes"];

function NewKeyForm({ email, onCreated }: { email: string; onCreated: (key: string, email: string) => void }) {
  const queryClient = useQueryClient();
  const [to, setTo] = useState(email);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>([...SCOPES]);
  const [expires, setExpires] = useState("");
  const [sites, setSites] = useState("");
  const body = {
    email: to,
    ...(name.trim() ? { name } : {}),
    scopes,
    // A date picked in the form means the end of that day, in the viewer's time zone.
    expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    site_ids: siteIdsOf(sites),
  };
  const errors = useFormErrors(body, OPERATOR_KEY_FIELDS);
  const create = useMutation({
    mutationFn: (sent: typeof body) => api<{ key: string; organization_id: number; api_key: ApiKeyView }>("/api/operator/keys", { method: "POST", body: sent }),
    onSuccess: ({ key }, sent) => {
      queryClient.invalidateQueries({ queryKey: ["operator", "keys"] });
      onCreated(key, sent.email);
      setName("");
      setSites("");
      errors.clear();
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  const error = errors.error;
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
        <Field label="For the user" hint="The key belongs to the organization this user works in; a new address gets a user and an organization of its own." error={error("email")}>
          {(a) => <TextInput {...a} type="email" value={to} onChange={(e) => setTo(e.target.value)} />}
        </Field>
        <Field label="Key name (optional)" error={error("name")}>
          {(a) => <TextInput {...a} value={name} placeholder="Operator key" onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Expires on (optional)" error={error("expires_at")}>
          {(a) => <TextInput {...a} type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />}
        </Field>
        <Field label="Limited to site ids (optional)" hint="e.g. 3, 5. Empty: every site of the organization." error={error("site_ids")}>
          {(a) => <TextInput {...a} value={sites} onChange={(e) => setSites(e.target.value)} />}
        </Field>
      </div>
      <CheckboxGroup legend="Scopes" error={error("scopes")}>
        {SCOPES.map((scope) => (
          <Check key={scope} label={<code>{scope}</code>} checked={scopes.includes(scope)} onChange={(on) => setScopes(toggle(scopes, scope, on))} />
        ))}
      </CheckboxGroup>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={create.isPending}>
          Create key
        </Button>
        <FormProblems errors={errors} />
      </div>
    </form>
  );
}

export function OperatorKeysView() {
  const [search, setSearch] = useState("");
  const [email, setEmail] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const keys = useQuery({ queryKey: keysKey(email), queryFn: () => api<UserKeys>(`/api/operator/keys?${new URLSearchParams({ email })}`), enabled: email !== "" });
  return (
    <div className="space-y-6">
      <PageHeader title="Keys" subtitle="API keys of any user's organization, as the CLI's keys commands handle them: look them up by a member's e-mail address, create one, revoke one." />
      {created ? (
        <ShownOnce title="The new API key" warning="Copy it now: it is shown only once, and Preheat keeps only a hash of it." label="New API key" value={created} onDone={() => setCreated(null)} />
      ) : null}
      <Card title="Look up">
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setEmail(search.trim().toLowerCase());
          }}
        >
          <TextInput aria-label="User's e-mail address" type="email" placeholder="user@example.com" value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
          <Button type="submit" variant="secondary">
            Show keys
          </Button>
        </form>
        <div className="mt-4">
          {!email ? null : keys.isPending ? (
            <Loading />
          ) : keys.error ? (
            <ErrorNote error={keys.error} />
          ) : keys.data.data.length === 0 ? (
            <EmptyState title={`No key in the organization of ${keys.data.email} (#${keys.data.organization_id})`} />
          ) : (
            <TableScroll label="API keys">
              <p className="mb-2 text-sm text-slate-600">
                Organization #{keys.data.organization_id}, where {keys.data.email} works now.
              </p>
              <KeysTable
                keys={keys.data.data}
                options={{
                  revokePath: (id) => `/api/operator/keys/${id}`,
                  queryKey: keysKey(email),
                  sitesOf: (ids) => (ids ? ids.join(", ") : "all"),
                  noCreator: "—",
                  showId: true,
                  rowTestId: "operator-key-row",
                }}
              />
            </TableScroll>
          )}
        </div>
      </Card>
      <Card title="New key">
        <NewKeyForm
          key={email}
          email={email}
          onCreated={(key, to) => {
            setCreated(key);
            setSearch(to);
            setEmail(to.trim().toLowerCase());
          }}
        />
      </Card>
    </div>
  );
}
