import { ENCODINGS, type RequestProfilePayload, type Variations } from "@/lib/core/variations";

/**
 * A request profile and the cookie-set and encoding variations as a form holds them: text as typed
 * (one header, cookie, user agent or cookie set a line), shared by the boost form and the warm form.
 * The API's schemas judge what the lines say (the boost form runs them before sending); only lines
 * that cannot be read are caught here, since no schema sees them.
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

/** The API names of the fields RequestProfileFields shows, where a form marks their problems. */
export const PROFILE_FIELDS = [
  "variations.cookie_sets",
  "variations.encodings",
  "request_profile.custom_user_agents",
  "request_profile.headers",
  "request_profile.cookies",
  "request_profile.basic_auth",
] as const;

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
