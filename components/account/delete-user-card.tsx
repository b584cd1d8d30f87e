"use client";

import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";

/** Deletes one's own user, and the organizations nobody else is in. */
export function DeleteUserCard({ email }: { email: string }) {
  const [confirm, setConfirm] = useState("");
  const [password, setPassword] = useState("");
  const remove = useMutation({
    mutationFn: () => api("/api/dashboard/user", { method: "DELETE", body: { confirm_email: confirm, password: password || undefined } }),
    onSuccess: () => signOut({ callbackUrl: "/" }),
  });
  const fieldError = (field: string) => (remove.error instanceof ApiError ? remove.error.field(field) : undefined);
  return (
    <Card title="Delete your user" className="mt-6 max-w-md">
      <p className="mb-4 text-sm text-slate-600">
        Your memberships and sessions end, and the organizations where you are the only member are deleted with their sites and runs. Where others work with you, make one of them owner first.
      </p>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          remove.mutate();
        }}
      >
        <Field label={`Type ${email} to confirm`} error={fieldError("confirm_email")}>
          {(a) => <TextInput {...a} name="confirm-email" value={confirm} onChange={(e) => setConfirm(e.target.value)} />}
        </Field>
        <Field label="Password, to delete your user" hint="Needed when you have one." error={fieldError("password")}>
          {(a) => <TextInput {...a} type="password" name="delete-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Button type="submit" variant="danger" busy={remove.isPending} disabled={confirm.trim().toLowerCase() !== email}>
          Delete my user
        </Button>
        {remove.error && !fieldError("confirm_email") && !fieldError("password") ? <ErrorNote error={remove.error} /> : null}
      </form>
    </Card>
  );
}
