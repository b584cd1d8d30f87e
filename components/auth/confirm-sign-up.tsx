"use client";

import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";

/**
 * The sign-up link opens this page and the button confirms: mail scanners that open links on their
 * own do not spend the one-time link.
 */
export function ConfirmSignUp({ token }: { token: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState<{ email: string; created: boolean } | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      setDone(await api<{ email: string; created: boolean }>("/api/dashboard/signup/confirm", { method: "POST", body: { token } }));
    } catch (caught) {
      setError(caught as Error);
    }
    setBusy(false);
  }

  if (done) {
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        <p>{done.created ? `Your address ${done.email} is confirmed and your account is ready.` : `${done.email} has an account already: sign in to it.`}</p>
        <Link href={`/signin?${new URLSearchParams({ email: done.email })}`} className="inline-block rounded-md bg-brand-600 px-3 py-2 font-medium text-white hover:bg-brand-700">
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">Confirm that this address is yours to create your account.</p>
      {error ? <ErrorNote error={error} /> : null}
      <Button onClick={confirm} busy={busy} disabled={!token} className="w-full">
        Confirm my address
      </Button>
    </div>
  );
}
