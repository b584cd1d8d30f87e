"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";

type Props = {
  token: string;
  email: string;
  organization: string;
  /** Who is signed in in this browser, if anybody. */
  signedInAs: string | null;
  /** The invited address has a Preheat user already (it signs in to accept). */
  hasUser: boolean;
  minPasswordLength: number;
};

/**
 * Accept or decline, from the invitation's link. Opening the link spends nothing (mail scanners open
 * links); the buttons do. A new address chooses its password here: the link proves it.
 */
export function InvitationAnswer({ token, email, organization, signedInAs, hasUser, minPasswordLength }: Props) {
  const router = useRouter();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [declined, setDeclined] = useState(false);

  async function accept(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const accepted = await api<{ signed_in: boolean }>("/api/dashboard/invitations/accept", { method: "POST", body: { token, ...(signedInAs ? {} : { password }) } });
      if (!accepted.signed_in) await signIn("password", { email, password, redirect: false });
      router.push("/sites");
      router.refresh();
    } catch (caught) {
      setError(caught as Error);
      setBusy(false);
    }
  }

  async function decline() {
    setBusy(true);
    setError(null);
    try {
      await api("/api/dashboard/invitations/decline", { method: "POST", body: { token } });
      setDeclined(true);
    } catch (caught) {
      setError(caught as Error);
    }
    setBusy(false);
  }

  if (declined) return <p role="status" className="text-sm text-slate-700">{`You declined the invitation to ${organization}. Nothing else changed.`}</p>;
  const fieldError = error instanceof ApiError ? error.field("password") : undefined;
  const declineButton = (
    <Button type="button" variant="secondary" busy={busy} onClick={decline}>
      Decline
    </Button>
  );

  if (signedInAs && signedInAs !== email) {
    return (
      <div className="space-y-3 text-sm text-slate-700">
        <p>{`This invitation is for ${email}, and you are signed in as ${signedInAs}. Sign out, then open the link again to accept it.`}</p>
        {declineButton}
        {error ? <ErrorNote error={error} /> : null}
      </div>
    );
  }
  if (!signedInAs && hasUser) {
    return (
      <div className="space-y-3 text-sm text-slate-700">
        <p>{`${email} already has a Preheat user: sign in, and you come back here to accept.`}</p>
        <div className="flex gap-3">
          <Link
            href={`/signin?${new URLSearchParams({ email, callbackUrl: `/invitations/${token}` })}`}
            className="inline-block rounded-md bg-brand-700 px-3 py-2 font-medium text-white hover:bg-brand-800"
          >
            Sign in to accept
          </Link>
          {declineButton}
        </div>
        {error ? <ErrorNote error={error} /> : null}
      </div>
    );
  }
  return (
    <form className="space-y-4" onSubmit={accept}>
      {signedInAs ? null : (
        <Field label="Choose a password" hint={`At least ${minPasswordLength} characters. You will sign in with your address, ${email}, and this password.`} error={fieldError}>
          {(a) => <TextInput {...a} type="password" name="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
      )}
      <div className="flex gap-3">
        <Button type="submit" busy={busy}>
          {`Join ${organization}`}
        </Button>
        {declineButton}
      </div>
      {error && !fieldError ? <ErrorNote error={error} /> : null}
    </form>
  );
}
