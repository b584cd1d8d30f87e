"use client";

import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";

/** The new address's link opens this page and the button confirms: a mail scanner opening the link changes nothing. */
export function ConfirmEmailChange({ token }: { token: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      setDone((await api<{ email: string }>("/api/dashboard/email/confirm", { method: "POST", body: { token } })).email);
    } catch (caught) {
      setError(caught as Error);
    }
    setBusy(false);
  }
  if (done) {
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        <p>{`Done: you sign in with ${done} from now on.`}</p>
        <Link href="/account" className="font-medium text-brand-700 underline">
          Back to your account
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <Button busy={busy} onClick={confirm}>
        Confirm the new address
      </Button>
      <ErrorNote error={error} />
    </div>
  );
}
