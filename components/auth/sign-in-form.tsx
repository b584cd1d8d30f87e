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
  TwoFactorInvalid: "That code is not right (each code works once): type the one your app shows now, or a recovery code.",
};

const needsCode = (error: string | null | undefined) => error === "TwoFactorRequired" || error === "TwoFactorInvalid";

/** What went wrong, said plainly; none when the password was right and the code is what comes next (a step, not an error). */
function errorText(code: string | null | undefined): string | null {
  if (!code || code === "TwoFactorRequired") return null;
  return errors[code] ?? "Sign-in failed: try again.";
}

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
  /** The password was checked right and kept for the code's step. */
  const [passwordGiven, setPasswordGiven] = useState(false);
  const [busy, setBusy] = useState<"password" | "link" | null>(null);
  const [error, setError] = useState<string | null>(errorText(params.get("error")));

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
    if (needsCode(result?.error)) {
      setAskCode(true);
      setPasswordGiven(true);
    }
    setError(errorText(result?.error ?? "CredentialsSignin"));
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

  if (askCode) {
    // Come from a sign-in link (which two-factor turns off), the password is not known yet: it is asked here too.
    const fromLink = !passwordGiven;
    return (
      <form onSubmit={withPassword} className="space-y-4" noValidate aria-labelledby="two-factor-step">
        <div className="space-y-1">
          <h2 id="two-factor-step" className="text-lg font-semibold text-slate-900">
            Two-factor sign-in
          </h2>
          <p className="text-sm text-slate-600">Your password is right. Now type the 6-digit code your authenticator app shows for {email || "your account"}, or one of your recovery codes.</p>
        </div>
        <Field label="Two-factor code" hint="From your authenticator app, or one of your recovery codes.">
          {(a) => <TextInput {...a} name="code" inputMode="numeric" autoComplete="one-time-code" autoFocus={!fromLink} value={code} onChange={(e) => setCode(e.target.value)} />}
        </Field>
        {error ? <ErrorNote error={error} /> : null}
        <Button type="submit" busy={busy === "password"} className="w-full">
          Sign in
        </Button>
        <button
          type="button"
          className="w-full text-center text-sm text-slate-600 underline"
          onClick={() => {
            setAskCode(false);
            setPasswordGiven(false);
            setCode("");
            setPassword("");
            setError(null);
          }}
        >
          Use another account
        </button>
      </form>
    );
  }

  return (
    <form onSubmit={withPassword} className="space-y-4" noValidate>
      <Field label="E-mail">{(a) => <TextInput {...a} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
      <Field label="Password">{(a) => <TextInput {...a} type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
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
