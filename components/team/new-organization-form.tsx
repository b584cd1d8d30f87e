"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { organizationBody } from "@/lib/accounts/team-schemas";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";

const NAME_FIELDS = ["name"];

/** A new organization the user owns, named by them; the session switches to it and opens its sites. */
export function NewOrganizationForm({ label }: { label: string }) {
  const [name, setName] = useState("");
  const body = { name };
  const errors = useFormErrors(body, NAME_FIELDS, checkWith(organizationBody, body, NAME_FIELDS));
  const create = useMutation({
    mutationFn: (sent: typeof body) => api("/api/dashboard/organizations", { method: "POST", body: sent }),
    onSuccess: () => {
      window.location.href = "/sites";
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) create.mutate(body);
      }}
    >
      <Field label={label} hint="You own it; this session switches to it." error={errors.error("name")}>
        {(a) => <TextInput {...a} name="new-organization" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Button type="submit" variant="secondary" busy={create.isPending}>
        Create
      </Button>
      <div className="w-full">
        <FormProblems errors={errors} />
      </div>
    </form>
  );
}
