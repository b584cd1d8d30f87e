"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, TextInput } from "@/components/ui/field";
import { ErrorNote } from "@/components/ui/card";

/** next-auth's error codes, said plainly. */
const errors: Record<string, string> = {
  CredentialsSignin: "That e-mail address and password do not match.",
  Verification: "That sign-in link has expired or was used already: ask for a new one.",
  EmailSignin: "The sign-in link could not be sent. Try again, or sign in with your password.",
  SessionRequired: "Sign in to see this page.",
  TwoFactorRequired: "Type the 6-digit code of your authenticator app (or a recovery code). Sign-in links do not work once two-factor sign-in is on.",
  TwoFactorInvalid: "That code is not right (each code works once): type the one your app shows now, or a recovery code.",
};

const needsCode = (error: string | null | undefined) => error === "TwoFactorRequired" || error === "TwoFactorInvalid";

/** Only paths of this site: an open redirect would let a link send users anywhere after sign-in. */
function safeCallback(value: string | null): string {
  return value?.startsWith("/") && !value.startsWith("//") ? value : "/sites";
}

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const callbackUrl = safeCallback(params.get("callbackUrl"));
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [askCode, setAskCode] = useState(needsCode(params.get("error")));
  const [busy, setBusy] = useState<"password" | "link" | null>(null);
  const [error, setError] = useState<string | null>(params.get("error") ? (errors[params.get("error")!] ?? "Sign-in failed: try again.") : null);

  async function withPassword(event: React.FormEvent) {
    event.preventDefault();
    setBusy("password");
    setError(null);
    const result = await signIn("password", { email, password, ...(askCode && code ? { code } : {}), redirect: false });
    setBusy(null);
    if (result?.ok && !result.error) {
      router.push(callbackUrl);
      router.refresh();
      return;
    }
    if (needsCode(result?.error)) setAskCode(true);
    setError(errors[result?.error ?? ""] ?? result?.error ?? errors.CredentialsSignin!);
  }

  async function withLink() {
    if (!email) return setError("Enter your e-mail address first: the link is sent there.");
    setBusy("link");
    setError(null);
    const result = await signIn("email", { email, redirect: false, callbackUrl });
    setBusy(null);
    if (result?.ok && !result.error) router.push("/signin/check-email");
    else setError(errors.EmailSignin!);
  }

  return (
    <form onSubmit={withPassword} className="space-y-4" noValidate>
      <Field label="E-mail">{(a) => <TextInput {...a} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
      <Field label="Password">{(a) => <TextInput {...a} type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
      {askCode ? (
        <Field label="Two-factor code" hint="From your authenticator app, or one of your recovery codes.">
          {(a) => <TextInput {...a} name="code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />}
        </Field>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
      <Button type="submit" busy={busy === "password"} className="w-full">
        Sign in
      </Button>
      <div className="flex items-center gap-3 text-xs text-slate-500">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button variant="secondary" busy={busy === "link"} onClick={withLink} className="w-full">
        E-mail me a sign-in link
      </Button>
      <p className="text-center text-sm text-slate-600">
        No account yet?{" "}
        <Link href="/signup" className="font-medium text-brand-700 underline">
          Sign up
        </Link>
      </p>
    </form>
  );
}
