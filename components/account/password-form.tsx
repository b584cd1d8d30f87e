"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, Loading } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";

const PASSWORD_FIELDS = ["current_password", "new_password"];

/** Sets a first password (users created by the CLI or a sign-in link have none) or changes it; either ends every other session. */
export function PasswordForm({ minPasswordLength }: { minPasswordLength: number }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ["password"], queryFn: () => api<{ has_password: boolean }>("/api/dashboard/password") });
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const hasPassword = status.data?.has_password ?? false;
  const body = { current_password: hasPassword ? current : undefined, new_password: next };
  const errors = useFormErrors(body, PASSWORD_FIELDS);

  if (status.isPending) return <Loading />;
  if (status.error) return <ErrorNote error={status.error} />;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    errors.attempt();
    setBusy(true);
    setSaved(false);
    try {
      await api("/api/dashboard/password", { method: "PUT", body });
      setSaved(true);
      setCurrent("");
      setNext("");
      await queryClient.invalidateQueries({ queryKey: ["password"] });
    } catch (caught) {
      errors.refused(body, caught);
    }
    setBusy(false);
  }

  return (
    <Card title={hasPassword ? "Change your password" : "Set a password"} className="max-w-md">
      {hasPassword ? null : <p className="mb-4 text-sm text-slate-600">You sign in with e-mailed links today. A password lets you sign in without one.</p>}
      <p className="mb-4 text-sm text-slate-600">Saving a password signs you out everywhere else: every other browser has to sign in again. This one stays signed in.</p>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {hasPassword ? (
          <Field label="Current password" error={errors.error("current_password")}>
            {(a) => <TextInput {...a} type="password" name="current_password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />}
          </Field>
        ) : null}
        <Field label="New password" hint={`At least ${minPasswordLength} characters.`} error={errors.error("new_password")}>
          {(a) => <TextInput {...a} type="password" name="new_password" autoComplete="new-password" required minLength={minPasswordLength} value={next} onChange={(e) => setNext(e.target.value)} />}
        </Field>
        <ErrorNote error={errors.notice} />
        {saved ? (
          <p role="status" className="text-sm text-emerald-700">
            Your password is saved. Every other session has ended.
          </p>
        ) : null}
        <Button type="submit" busy={busy}>
          {hasPassword ? "Change password" : "Set password"}
        </Button>
      </form>
    </Card>
  );
}
