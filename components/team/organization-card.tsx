"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Can } from "@/components/dashboard/role";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Check } from "@/components/ui/choices";
import { Field, TextInput } from "@/components/ui/field";

type Organization = { id: number; name: string; role: string; require_two_factor: boolean };
const organizationKey = ["organization"] as const;

function Settings({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [confirm, setConfirm] = useState("");
  const save = useMutation({
    mutationFn: (changes: { name?: string; require_two_factor?: boolean }) => api<Organization>("/api/dashboard/organization", { method: "PATCH", body: changes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKey }),
  });
  const remove = useMutation({
    mutationFn: () => api("/api/dashboard/organization", { method: "DELETE", body: { confirm_name: confirm } }),
    onSuccess: () => {
      window.location.href = "/sites";
    },
  });
  const nameError = save.error instanceof ApiError ? save.error.field("name") : undefined;
  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ name });
        }}
      >
        <Field label="Organization name" error={nameError}>
          {(a) => <TextInput {...a} name="organization-name" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Button type="submit" variant="secondary" busy={save.isPending}>
          Rename
        </Button>
      </form>
      <Check
        label="Require two-factor sign-in of every member (members without it can open only their Account page until they turn it on)"
        checked={organization.require_two_factor}
        disabled={save.isPending}
        onChange={(on) => save.mutate({ require_two_factor: on })}
      />
      {save.error && !nameError ? <ErrorNote error={save.error} /> : null}
      <div className="border-t border-slate-100 pt-4">
        <p className="mb-3 text-sm text-slate-600">Deleting the organization deletes its sites, boosts, runs, webhooks and keys, at once and for good. Its members keep their users.</p>
        <div className="flex flex-wrap items-end gap-3">
          <Field label={`Type ${organization.name} to delete it`}>{(a) => <TextInput {...a} name="confirm-organization" value={confirm} onChange={(e) => setConfirm(e.target.value)} />}</Field>
          <Button variant="danger" busy={remove.isPending} disabled={confirm.trim() !== organization.name} onClick={() => remove.mutate()}>
            Delete organization
          </Button>
        </div>
        <ErrorNote error={remove.error} />
      </div>
    </div>
  );
}

function NewOrganization() {
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => api("/api/dashboard/organizations", { method: "POST", body: { name } }),
    onSuccess: () => {
      window.location.href = "/sites";
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
      <Field label="New organization" hint="You own it; this session switches to it." error={create.error instanceof ApiError ? create.error.field("name") : undefined}>
        {(a) => <TextInput {...a} name="new-organization" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Button type="submit" variant="secondary" busy={create.isPending}>
        Create
      </Button>
    </form>
  );
}

/** The organization's settings for its owners, and a new organization for anybody. */
export function OrganizationCard() {
  const organization = useQuery({ queryKey: organizationKey, queryFn: () => api<Organization>("/api/dashboard/organization") });
  return (
    <Card title="Organization" className="mt-6">
      <ErrorNote error={organization.error} />
      {organization.data ? (
        <Can atLeast="owner" otherwise={<p className="mb-4 text-sm text-slate-600">{`${organization.data.name}: its owners manage its settings.`}</p>}>
          <Settings key={`${organization.data.id}-${organization.data.require_two_factor}`} organization={organization.data} />
        </Can>
      ) : null}
      <div className="mt-6 border-t border-slate-100 pt-4">
        <NewOrganization />
      </div>
    </Card>
  );
}
