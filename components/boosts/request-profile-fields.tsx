"use client";

import { ApiError } from "@/components/dashboard/api";
import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { ENCODINGS, type RequestProfilePayload, type Variations } from "@/lib/core/variations";

/**
 * A request profile and the cookie-set and encoding variations as a form holds them: text as typed
 * (one header, cookie, user agent or cookie set a line), shared by the boost form and the warm form.
 * The server's schema stays the judge; only lines that cannot be read are caught here.
 */
export type ProfileState = {
  headers: string;
  cookies: string;
  customUserAgents: string;
  cookieSets: string;
  encodings: string[];
  authUsername: string;
  /** Empty with `passwordSet`: the stored password is kept. */
  authPassword: string;
  /** The boost has a password stored (it is never shown). */
  passwordSet: boolean;
};

export const EMPTY_PROFILE: ProfileState = { headers: "", cookies: "", customUserAgents: "", cookieSets: "", encodings: [], authUsername: "", authPassword: "", passwordSet: false };

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
const cookieText = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");

export function profileStateOf(profile: RequestProfilePayload | null | undefined, variations: Variations | null | undefined): ProfileState {
  return {
    headers: Object.entries(profile?.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n"),
    cookies: cookieText(profile?.cookies ?? {}),
    customUserAgents: (profile?.custom_user_agents ?? []).join("\n"),
    cookieSets: (variations?.cookie_sets ?? []).map((set) => `${set.name}: ${cookieText(set.cookies)}`).join("\n"),
    encodings: variations?.encodings ?? [],
    authUsername: profile?.basic_auth?.username ?? "",
    authPassword: "",
    passwordSet: Boolean(profile?.basic_auth),
  };
}

/** `a=1; b=2` (or one a line) as cookies; null when a part is no name=value. */
function parseCookies(text: string): Record<string, string> | null {
  const cookies: Record<string, string> = {};
  for (const part of text.split(/[;\n]/).map((p) => p.trim())) {
    if (!part) continue;
    const at = part.indexOf("=");
    if (at < 1) return null;
    cookies[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return cookies;
}

function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf(":");
    if (at < 1) return null;
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

function parseCookieSets(text: string): { name: string; cookies: Record<string, string> }[] | null {
  const sets = [];
  for (const line of lines(text)) {
    const at = line.indexOf(":");
    const cookies = at < 1 ? null : parseCookies(line.slice(at + 1));
    if (!cookies) return null;
    sets.push({ name: line.slice(0, at).trim(), cookies });
  }
  return sets;
}

/** The lines that cannot be read, by the API's field names. */
export function profileProblems(state: ProfileState): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!parseHeaders(state.headers)) problems["request_profile.headers"] = "Write one header a line, as Name: value.";
  if (!parseCookies(state.cookies)) problems["request_profile.cookies"] = "Write the cookies as name=value, separated by ; or new lines.";
  if (!parseCookieSets(state.cookieSets)) problems["variations.cookie_sets"] = "Write one set a line, as NAME: cookie=value; other=value.";
  if (!state.authUsername.trim() && state.authPassword) problems["request_profile.basic_auth"] = "Give the user name that goes with the password.";
  else if (state.authUsername.trim() && !state.authPassword && !state.passwordSet) problems["request_profile.basic_auth"] = "Give the password (it is stored encrypted, never shown again).";
  return problems;
}

/**
 * The API's `request_profile` (null when empty) and the variations' cookie sets and encodings.
 * A Basic auth left without a new password keeps the stored one; an empty user name removes it.
 */
export function profileBody(state: ProfileState) {
  const headers = parseHeaders(state.headers) ?? {};
  const cookies = parseCookies(state.cookies) ?? {};
  const customUserAgents = lines(state.customUserAgents);
  const username = state.authUsername.trim();
  const profile = {
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(cookies).length ? { cookies } : {}),
    ...(customUserAgents.length ? { custom_user_agents: customUserAgents } : {}),
    ...(username ? { basic_auth: state.authPassword ? { username, password: state.authPassword } : { username } } : {}),
  };
  const cookieSets = parseCookieSets(state.cookieSets) ?? [];
  const encodings = ENCODINGS.filter((encoding) => state.encodings.includes(encoding));
  return {
    request_profile: Object.keys(profile).length ? profile : null,
    variations: { ...(cookieSets.length ? { cookie_sets: cookieSets } : {}), ...(encodings.length ? { encodings } : {}) },
  };
}

/** What the server said of a field or one inside it, naming the inner one (`X-Bad: may not be set here: …`). */
export function serverProblem(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const found = error.details.find((d) => d.field === field || d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`));
  if (!found) return undefined;
  const inner = found.field.slice(field.length).replace(/^\./, "");
  return inner ? `${inner}: ${found.message}` : found.message;
}

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
