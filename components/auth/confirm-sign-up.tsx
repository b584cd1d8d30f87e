"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import type { Problems } from "@/lib/core/field-errors";
import { organizationBody } from "@/lib/accounts/team-schemas";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";

const CONFIRM_FIELDS = ["organization_name", "password"];

/**
 * The sign-up link opens this page and the button confirms: mail scanners that open links on their
 * own do not spend the one-time link. The password is chosen here, once the address is proven, so
 * nobody who merely typed the address at sign-up can hold the account's password.
 */
export function ConfirmSignUp({ token, email, minPasswordLength }: { token: string; email: string; minPasswordLength: number }) {
  const router = useRouter();
  const [password, setPassword] = useState("");
  const [organizationName, setOrganizationName] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ email: string; created: boolean } | null>(null);
  const body = { organization_name: organizationName, password };
  const errors = useFormErrors(body, CONFIRM_FIELDS, (): Problems => {
    const name = organizationBody.shape.name.safeParse(organizationName);
    return {
      ...(name.success ? {} : { organization_name: name.error.issues[0]!.message }),
      ...(password.length >= minPasswordLength ? {} : { password: `The password needs at least ${minPasswordLength} characters.` }),
    };
  });

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    if (!errors.attempt()) return;
    setBusy(true);
    try {
      const confirmed = await api<{ email: string; created: boolean }>("/api/dashboard/signup/confirm", { method: "POST", body: { token, ...body } });
      // The account is new and its password was just typed: sign in with it at once.
      const signedIn = confirmed.created ? await signIn("password", { email: confirmed.email, password, redirect: false }) : undefined;
      if (signedIn?.ok && !signedIn.error) {
        router.push("/sites");
        router.refresh();
        return;
      }
      setDone(confirmed);
    } catch (caught) {
      errors.refused(body, caught);
    }
    setBusy(false);
  }

  if (done) {
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        <p>{done.created ? `Your address ${done.email} is confirmed and your account is ready: sign in with the password you chose.` : `${done.email} has an account already: sign in to it.`}</p>
        <Link href={`/signin?${new URLSearchParams({ email: done.email })}`} className="inline-block rounded-md bg-brand-700 px-3 py-2 font-medium text-white hover:bg-brand-800">
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={confirm} className="space-y-4" noValidate>
      <p className="text-sm text-slate-600">
        Name your organization and choose the password of <strong>{email}</strong> to create your account. The link works once, so it is spent only when you press the button.
      </p>
      <Field label="Organization name" hint="Your sites, keys and team belong to it; you own it, and can rename it later." error={errors.error("organization_name")}>
        {(a) => <TextInput {...a} name="organization" autoComplete="organization" required value={organizationName} onChange={(e) => setOrganizationName(e.target.value)} />}
      </Field>
      <Field label="Password" hint={`At least ${minPasswordLength} characters.`} error={errors.error("password")}>
        {(a) => <TextInput {...a} type="password" name="password" autoComplete="new-password" required minLength={minPasswordLength} value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      {/* Password managers file the new password under this address. */}
      <input type="hidden" name="email" autoComplete="username" value={email} />
      <FormProblems errors={errors} />
      <Button type="submit" busy={busy} className="w-full">
        Create my account
      </Button>
    </form>
  );
}
