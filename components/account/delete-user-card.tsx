"use client";

import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";

const DELETE_FIELDS = ["confirm_email", "password"];

/** Deletes one's own user, and the organizations nobody else is in. */
export function DeleteUserCard({ email }: { email: string }) {
  const [confirm, setConfirm] = useState("");
  const [password, setPassword] = useState("");
  const body = { confirm_email: confirm, password: password || undefined };
  const errors = useFormErrors(body, DELETE_FIELDS);
  const remove = useMutation({
    mutationFn: (sent: typeof body) => api("/api/dashboard/user", { method: "DELETE", body: sent }),
    onSuccess: () => signOut({ callbackUrl: "/" }),
  });
  return (
    <Card title="Delete your user" className="mt-6 max-w-md">
      <p className="mb-4 text-sm text-slate-600">
        Your memberships and sessions end, and the organizations where you are the only member are deleted with their sites and runs. Where others work with you, make one of them owner first.
      </p>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          errors.attempt();
          remove.mutate(body, { onError: (error) => errors.refused(body, error) });
        }}
      >
        <Field label={`Type ${email} to confirm`} error={errors.error("confirm_email")}>
          {(a) => <TextInput {...a} name="confirm-email" value={confirm} onChange={(e) => setConfirm(e.target.value)} />}
        </Field>
        <Field label="Password, to delete your user" hint="Needed when you have one." error={errors.error("password")}>
          {(a) => <TextInput {...a} type="password" name="delete-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Button type="submit" variant="danger" busy={remove.isPending} disabled={confirm.trim().toLowerCase() !== email}>
          Delete my user
        </Button>
        <ErrorNote error={errors.notice} />
      </form>
    </Card>
  );
}
