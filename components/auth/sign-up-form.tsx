"use client";

import Link from "next/link";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { NoEmailTransportNote } from "./no-email-transport-note";

export function SignUpForm({ minPasswordLength, emailTransport }: { minPasswordLength: number; emailTransport: boolean }) {
  const [form, setForm] = useState({ name: "", email: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ email: string }>("/api/dashboard/signup", { method: "POST", body: { email: form.email, password: form.password, name: form.name || undefined } });
      setSentTo(answer.email);
    } catch (caught) {
      setError(caught as Error);
    }
    setBusy(false);
  }

  if (sentTo) {
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        <h2 className="text-base font-semibold text-slate-900">Check your e-mail</h2>
        <p>
          We sent a link to <strong>{sentTo}</strong>. Follow it to confirm the address: your account is created then, and you sign in with the password you chose. The link works once and expires in
          24 hours.
        </p>
        {emailTransport ? null : <NoEmailTransportNote email={sentTo} />}
      </div>
    );
  }

  const fieldError = (name: string) => (error instanceof ApiError ? error.field(name) : undefined);
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Name (optional)">{(a) => <TextInput {...a} name="name" autoComplete="name" value={form.name} onChange={set("name")} />}</Field>
      <Field label="E-mail" error={fieldError("email")}>
        {(a) => <TextInput {...a} type="email" name="email" autoComplete="email" required value={form.email} onChange={set("email")} />}
      </Field>
      <Field label="Password" hint={`At least ${minPasswordLength} characters.`} error={fieldError("password")}>
        {(a) => <TextInput {...a} type="password" name="password" autoComplete="new-password" required minLength={minPasswordLength} value={form.password} onChange={set("password")} />}
      </Field>
      {error ? <ErrorNote error={error} /> : null}
      <Button type="submit" busy={busy} className="w-full">
        Create account
      </Button>
      <p className="text-center text-sm text-slate-600">
        Have an account?{" "}
        <Link href="/signin" className="font-medium text-brand-700 underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
