"use client";

import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { ENCODINGS } from "@/lib/core/variations";
import type { ProfileState } from "./request-profile-model";

const textareaClass = `${inputClass} font-mono`;

/** The fields of a request profile, cookie sets and encodings. `problem(field)` gives the API field's message. */
export function RequestProfileFields({ state, onChange, problem }: { state: ProfileState; onChange: (state: ProfileState) => void; problem: (field: string) => string | undefined }) {
  const set = <K extends keyof ProfileState>(key: K, value: ProfileState[K]) => onChange({ ...state, [key]: value });
  return (
    <div className="space-y-5">
      <Field
        label="Cookie sets"
        hint="For caches keyed on a cookie (a currency, a consent state): one set a line, as NAME: cookie=value; other=value. Each set is a call per URL, user agent and language. Empty: none."
        error={problem("variations.cookie_sets")}
      >
        {(props) => (
          <textarea
            {...props}
            name="cookie_sets"
            rows={3}
            className={textareaClass}
            value={state.cookieSets}
            onChange={(e) => set("cookieSets", e.target.value)}
            placeholder={"USD: currency=USD\nEUR: currency=EUR"}
          />
        )}
      </Field>
      <CheckboxGroup
        legend="Encodings"
        hint="For caches keyed on Accept-Encoding: each is a call per URL and variant, sending exactly that value. None checked: each user agent sends its browser's own."
        error={problem("variations.encodings")}
      >
        {ENCODINGS.map((encoding) => (
          <Check key={encoding} label={encoding} name="encodings" checked={state.encodings.includes(encoding)} onChange={(on) => set("encodings", toggle(state.encodings, encoding, on))} />
        ))}
      </CheckboxGroup>
      <Field
        label="Custom user agents"
        hint="User-Agent strings warmed beside the classes above, one a line: each is a call per URL, language, cookie set and encoding."
        error={problem("request_profile.custom_user_agents")}
      >
        {(props) => <textarea {...props} name="custom_user_agents" rows={2} className={textareaClass} value={state.customUserAgents} onChange={(e) => set("customUserAgents", e.target.value)} />}
      </Field>
      <Field
        label="Extra headers"
        hint="Sent with every call, one a line, as Name: value (at most 20). Cookies, credentials and the variants' headers have fields of their own."
        error={problem("request_profile.headers")}
      >
        {(props) => <textarea {...props} name="headers" rows={2} className={textareaClass} value={state.headers} onChange={(e) => set("headers", e.target.value)} placeholder="X-Preview: 0" />}
      </Field>
      <Field label="Cookies" hint="Sent with every call, as name=value separated by ; (a cookie set's win over them)." error={problem("request_profile.cookies")}>
        {(props) => <TextInput {...props} name="cookies" value={state.cookies} onChange={(e) => set("cookies", e.target.value)} autoComplete="off" placeholder="consent=all" className="font-mono" />}
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Basic auth</legend>
        <p className="text-xs text-slate-500">
          For a site behind a password (staging): sent to the site's own host only. The password is stored encrypted and never shown again
          {state.passwordSet ? "; leave it empty to keep the stored one, or empty the user name to remove it" : ""}.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="User name" error={problem("request_profile.basic_auth")}>
            {(props) => <TextInput {...props} name="basic_auth_username" value={state.authUsername} onChange={(e) => set("authUsername", e.target.value)} autoComplete="off" />}
          </Field>
          <Field label="Password">
            {(props) => (
              <TextInput
                {...props}
                name="basic_auth_password"
                type="password"
                value={state.authPassword}
                onChange={(e) => set("authPassword", e.target.value)}
                autoComplete="new-password"
                placeholder={state.passwordSet ? "unchanged" : undefined}
              />
            )}
          </Field>
        </div>
      </fieldset>
    </div>
  );
}
