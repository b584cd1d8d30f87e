"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";

export function SignUpForm({ minPasswordLength }: { minPasswordLength: number }) {
  const router = useRouter();
  const [form, setForm] = useState({ name: "", email: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("/api/dashboard/signup", { method: "POST", body: { email: form.email, password: form.password, name: form.name || undefined } });
      const result = await signIn("password", { email: form.email, password: form.password, redirect: false });
      if (!result?.ok || result.error) throw new Error("Your account was created, but signing in failed: sign in with your password.");
      router.push("/sites");
      router.refresh();
    } catch (caught) {
      setError(caught as Error);
      setBusy(false);
    }
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
