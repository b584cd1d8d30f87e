"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";

const EMAIL_FIELDS = ["new_email", "password"];

/** Changes the address one signs in with: the new one confirms by its link, the old one is told. */
export function EmailCard({ email }: { email: string }) {
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const body = { new_email: newEmail, password: password || undefined };
  const errors = useFormErrors(body, EMAIL_FIELDS);
  const change = useMutation({ mutationFn: (sent: typeof body) => api<{ new_email: string }>("/api/dashboard/email", { method: "POST", body: sent }) });
  return (
    <Card title="E-mail address" className="mt-6 max-w-md">
      <p className="mb-4 text-sm text-slate-600">{`You sign in with ${email}. A new address is used once you follow the link e-mailed to it; ${email} is told.`}</p>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          errors.attempt();
          change.mutate(body, { onError: (error) => errors.refused(body, error) });
        }}
      >
        <Field label="New address" error={errors.error("new_email")}>
          {(a) => <TextInput {...a} type="email" name="new-email" required value={newEmail} onChange={(e) => setNewEmail(e.target.value)} />}
        </Field>
        <Field label="Password, to change the address" hint="Needed when you have one." error={errors.error("password")}>
          {(a) => <TextInput {...a} type="password" name="email-change-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Button type="submit" busy={change.isPending}>
          Change address
        </Button>
        <ErrorNote error={errors.notice} />
        {change.data ? <p role="status" className="text-sm text-emerald-700">{`Check ${change.data.new_email}: the link there makes the change (24 hours).`}</p> : null}
      </form>
    </Card>
  );
}
