"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { FormProblems } from "@/components/dashboard/form-problems";
import { twoFactorCodeBody } from "@/lib/accounts/team-schemas";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, Loading } from "@/components/ui/card";
import { Field, TextInput } from "@/components/ui/field";
import { RecoveryCodes } from "./recovery-codes";

type State = { enabled: boolean; enabled_at: string | null; recovery_codes_left: number; required_by: string | null; available: boolean };
type Setup = { secret: string; uri: string; qr_svg: string };

const stateKey = ["two-factor"] as const;

const CODE_FIELDS = ["code"];

/** A code from the authenticator app and a button; `submit` sends it, and what the server refuses is said under the field until it changes. */
function CodeForm({ label, busy, submit }: { label: string; busy: boolean; submit: (code: string) => Promise<unknown> }) {
  const [code, setCode] = useState("");
  const body = { code };
  const errors = useFormErrors(body, CODE_FIELDS, checkWith(twoFactorCodeBody, body, CODE_FIELDS));
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) submit(code).catch((error: unknown) => errors.refused(body, error));
      }}
    >
      <Field label="Code from the app" error={errors.error("code")}>
        {(a) => <TextInput {...a} name="totp-code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />}
      </Field>
      <Button type="submit" busy={busy}>
        {label}
      </Button>
      <div className="w-full">
        <FormProblems errors={errors} />
      </div>
    </form>
  );
}

/** Two-factor sign-in with an authenticator app (TOTP), and its recovery codes. */
export function TwoFactorCard({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: stateKey, queryFn: () => api<State>("/api/dashboard/two-factor") });
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const changed = () => queryClient.invalidateQueries({ queryKey: stateKey });
  const begin = useMutation({ mutationFn: () => api<Setup>("/api/dashboard/two-factor/setup", { method: "POST" }), onSuccess: setSetup });
  const enable = useMutation({
    mutationFn: (code: string) => api<{ recovery_codes: string[] }>("/api/dashboard/two-factor/enable", { method: "POST", body: { code } }),
    onSuccess: (answer) => {
      setSetup(null);
      setCodes(answer.recovery_codes);
      changed();
    },
  });
  const renew = useMutation({
    mutationFn: (code: string) => api<{ recovery_codes: string[] }>("/api/dashboard/two-factor/recovery-codes", { method: "POST", body: { code } }),
    onSuccess: (answer) => {
      setCodes(answer.recovery_codes);
      changed();
    },
  });
  const disable = useMutation({ mutationFn: (code: string) => api("/api/dashboard/two-factor/disable", { method: "POST", body: { code } }), onSuccess: changed });

  return (
    <Card title="Two-factor sign-in" className="mt-6">
      {state.isPending ? <Loading /> : <ErrorNote error={state.error} />}
      {codes ? <RecoveryCodes className="mb-4" codes={codes} account={email} onDone={() => setCodes(null)} /> : null}
      {state.data && !state.data.enabled ? (
        <div className="space-y-4 text-sm text-slate-700">
          <p>
            Sign in with your password and a 6-digit code from an authenticator app (1Password, Google Authenticator, Aegis…). Sign-in links stop working for you once it is on.
            {state.data.required_by ? ` ${state.data.required_by} requires it of every member.` : ""}
          </p>
          {!state.data.available ? (
            <ErrorNote error="Two-factor sign-in is not available on this server yet: it has no PREHEAT_SECRETS_KEY to keep your authenticator's secret encrypted. Ask its operator to set one (the same on every server and worker)." />
          ) : setup ? (
            <>
              <p>Scan this code with the app, or type the key below into it; then type the code the app shows.</p>
              <div className="h-48 w-48" aria-label="QR code for the authenticator app" role="img" dangerouslySetInnerHTML={{ __html: setup.qr_svg }} />
              <p>
                Key: <code className="break-all">{setup.secret}</code>
              </p>
              <CodeForm label="Turn on" busy={enable.isPending} submit={(code) => enable.mutateAsync(code)} />
            </>
          ) : (
            <Button busy={begin.isPending} onClick={() => begin.mutate()}>
              Set up two-factor sign-in
            </Button>
          )}
          <ErrorNote error={begin.error} />
        </div>
      ) : null}
      {state.data?.enabled ? (
        <div className="space-y-4 text-sm text-slate-700">
          <p>{`On. ${state.data.recovery_codes_left} recovery codes left.`}</p>
          <CodeForm label="New recovery codes" busy={renew.isPending} submit={(code) => renew.mutateAsync(code)} />
          {state.data.required_by ? (
            <p className="text-slate-500">{`${state.data.required_by} requires it: it stays on while you belong to it.`}</p>
          ) : (
            <CodeForm label="Turn off" busy={disable.isPending} submit={(code) => disable.mutateAsync(code)} />
          )}
        </div>
      ) : null}
    </Card>
  );
}
