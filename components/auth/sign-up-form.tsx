"use client";

import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { useFormErrors } from "@/components/dashboard/form-errors";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { NoEmailTransportNote } from "./no-email-transport-note";

const SIGN_UP_FIELDS = ["name", "email"];

/** Sign-up takes the address alone: the password is chosen on the page its e-mailed link opens, once the address is proven. */
export function SignUpForm({ emailTransport }: { emailTransport: boolean }) {
  const [form, setForm] = useState({ name: "", email: "" });
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const body = { email: form.email, name: form.name || undefined };
  const errors = useFormErrors(body, SIGN_UP_FIELDS);
  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    errors.attempt();
    setBusy(true);
    try {
      const answer = await api<{ email: string }>("/api/dashboard/signup", { method: "POST", body });
      setSentTo(answer.email);
    } catch (caught) {
      errors.refused(body, caught);
    }
    setBusy(false);
  }

  if (sentTo) {
    const link = "Follow the link to confirm the address, name your organization and choose your password: your account is created then.";
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        {emailTransport ? (
          <>
            <h2 className="text-base font-semibold text-slate-900">Check your e-mail</h2>
            <p>
              We sent a link to <strong>{sentTo}</strong>. {link}
            </p>
          </>
        ) : (
          <>
            <h2 className="text-base font-semibold text-slate-900">Your link is in the server's outbox</h2>
            <NoEmailTransportNote email={sentTo} />
            <p>{link}</p>
          </>
        )}
        <p>The link works once and expires in 24 hours; signing up again makes a new one, and the earlier ones stop working.</p>
        {emailTransport ? <p className="text-slate-600">Nothing there? At most 5 e-mails an hour go to one address: wait a little before asking again.</p> : null}
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Name (optional)" error={errors.error("name")}>
        {(a) => <TextInput {...a} name="name" autoComplete="name" value={form.name} onChange={set("name")} />}
      </Field>
      <Field label="E-mail" error={errors.error("email")}>
        {(a) => <TextInput {...a} type="email" name="email" autoComplete="email" required value={form.email} onChange={set("email")} />}
      </Field>
      <p className="text-sm text-slate-600">We e-mail you a link; you choose your password on the page it opens.</p>
      <ErrorNote error={errors.notice} />
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
