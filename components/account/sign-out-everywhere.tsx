"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { Card, ErrorNote } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Ends every session of the user at once, this one too: for a lost laptop or a shared computer. */
export function SignOutEverywhere() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  async function endAll() {
    setBusy(true);
    setError(null);
    try {
      await api("/api/dashboard/sessions", { method: "DELETE" });
      // This session has ended with the others: drop its cookie and go to sign in.
      await signOut({ callbackUrl: "/signin" });
    } catch (caught) {
      setError(caught as Error);
      setBusy(false);
    }
  }

  return (
    <Card title="Sessions" className="mt-6 max-w-md">
      <p className="mb-4 text-sm text-slate-600">
        Signed in on a computer you no longer use? Sign out everywhere ends every session of yours, this one included: each browser has to sign in again. API keys keep working (revoke them under API
        keys). Changing your password ends every other session too.
      </p>
      {error ? <ErrorNote error={error} /> : null}
      <ConfirmButton label="Sign out everywhere" confirmLabel="Sign out everywhere" question="End every session, this one too?" busy={busy} onConfirm={endAll} />
    </Card>
  );
}
