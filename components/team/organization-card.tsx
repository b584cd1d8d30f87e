"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { organizationBody } from "@/lib/accounts/team-schemas";
import { Can } from "@/components/dashboard/role";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Check } from "@/components/ui/choices";
import { Field, TextInput } from "@/components/ui/field";
import { organizationsKey } from "@/components/organization-switcher";
import { NewOrganizationForm } from "./new-organization-form";

type Organization = { id: number; name: string; role: string; require_two_factor: boolean };
const organizationKey = ["organization"] as const;

const NAME_FIELDS = ["name"];

function Settings({ organization }: { organization: Organization }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(organization.name);
  const [confirm, setConfirm] = useState("");
  const [renamedTo, setRenamedTo] = useState<string | null>(null);
  const renaming = { name };
  const errors = useFormErrors(renaming, NAME_FIELDS, checkWith(organizationBody, renaming, NAME_FIELDS));
  const save = useMutation({
    mutationFn: (changes: { name?: string; require_two_factor?: boolean }) => api<Organization>("/api/dashboard/organization", { method: "PATCH", body: changes }),
    onSuccess: (saved, changes) => {
      if (changes.name !== undefined) setRenamedTo(saved.name);
      queryClient.setQueryData(organizationKey, saved);
      // The header's organization menu reads the same cache: it shows the new name at once.
      return queryClient.invalidateQueries({ queryKey: organizationsKey });
    },
    onError: (error, changes) => {
      if (changes.name !== undefined) errors.refused({ name: changes.name }, error);
    },
  });
  const remove = useMutation({
    mutationFn: () => api("/api/dashboard/organization", { method: "DELETE", body: { confirm_name: confirm } }),
    onSuccess: () => {
      window.location.href = "/sites";
    },
  });
  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (errors.attempt()) save.mutate(renaming);
        }}
      >
        <Field label="Organization name" error={errors.error("name")}>
          {(a) => <TextInput {...a} name="organization-name" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Button type="submit" variant="secondary" busy={save.isPending}>
          Rename
        </Button>
        {renamedTo !== null && renamedTo === name.trim() ? <p role="status" className="text-sm text-emerald-800">{`Renamed: the organization is ${renamedTo} now.`}</p> : null}
      </form>
      <Check
        label="Require two-factor sign-in of every member (members without it can open only their Account page until they turn it on)"
        checked={organization.require_two_factor}
        disabled={save.isPending}
        onChange={(on) => save.mutate({ require_two_factor: on })}
      />
      <FormProblems errors={errors} />
      {save.error && save.variables?.name === undefined ? <ErrorNote error={save.error} /> : null}
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
        <NewOrganizationForm label="New organization" />
      </div>
    </Card>
  );
}
