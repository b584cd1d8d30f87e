import type { RequestProfileValue } from "@/drizzle/schema";
import type { RequestProfileInput, RequestProfilePayload } from "@/lib/core/variations";
import { InvalidError } from "@/lib/core/errors";
import { decryptSecret, encryptSecret, NO_SECRETS_KEY, SecretsError, secretsKeyConfigured } from "@/lib/secrets";

// A boost's or warm's request profile: sealed when it is saved (the password encrypted), shown
// without its password, and opened only in the worker's memory when a run is taken up.

/** The Authorization header of a profile's Basic auth (RFC 7617, UTF-8), or null without one. Throws SecretsError when the password cannot be opened. */
export function basicAuthorization(profile: RequestProfileValue | null): string | null {
  const auth = profile?.basic_auth;
  if (!auth) return null;
  return `Basic ${Buffer.from(`${auth.username}:${decryptSecret(auth.password_encrypted)}`, "utf8").toString("base64")}`;
}

/**
 * Why a run cannot send what its profile asks for (its Basic auth password was sealed under another
 * PREHEAT_SECRETS_KEY, or none is set now), or null when it can: a run that would only collect
 * 401s fails at planning instead, saying what to do.
 */
export function unusableProfile(profile: RequestProfileValue | null): string | null {
  try {
    basicAuthorization(profile);
    return null;
  } catch (error) {
    if (!(error instanceof SecretsError)) throw error;
    return `The request profile's Basic auth password cannot be used: ${error.message}. Once the key is right, set the password again.`;
  }
}

/**
 * A request profile as stored, from what a boost or a warm was given: the Basic auth password
 * sealed (lib/secrets), never kept in clear. `stored`: the boost's profile before an update, whose
 * password a `basic_auth` without one keeps (a form edits the rest without typing it again).
 * An empty profile is no profile.
 */
export function sealRequestProfile(input: RequestProfileInput | null | undefined, stored: RequestProfileValue | null = null): RequestProfileValue | null {
  if (!input) return null;
  const profile: RequestProfileValue = {};
  if (input.headers && Object.keys(input.headers).length) profile.headers = input.headers;
  if (input.cookies && Object.keys(input.cookies).length) profile.cookies = input.cookies;
  if (input.custom_user_agents?.length) profile.custom_user_agents = input.custom_user_agents;
  if (input.basic_auth) {
    const { username, password } = input.basic_auth;
    if (password !== undefined) {
      if (!secretsKeyConfigured()) throw new InvalidError(`request_profile.basic_auth: ${NO_SECRETS_KEY}.`, [{ field: "request_profile.basic_auth", message: NO_SECRETS_KEY }]);
      profile.basic_auth = { username, password_encrypted: encryptSecret(password) };
    } else if (stored?.basic_auth) {
      profile.basic_auth = { username, password_encrypted: stored.basic_auth.password_encrypted };
    } else {
      throw new InvalidError("request_profile.basic_auth.password: is required.", [{ field: "request_profile.basic_auth.password", message: "is required" }]);
    }
  }
  return Object.keys(profile).length ? profile : null;
}

/** A stored profile as the API shows it: that a password is set, never the password. */
export function toRequestProfile(value: RequestProfileValue | null): RequestProfilePayload | null {
  if (!value) return null;
  const { basic_auth, ...rest } = value;
  return basic_auth ? { ...rest, basic_auth: { username: basic_auth.username, password_set: true } } : rest;
}

type ProfileForms = Partial<Pick<RequestProfileInput, "headers" | "cookies" | "basic_auth" | "custom_user_agents">> & { request_profile?: RequestProfileInput | null };

/** The one request profile of a body: `request_profile`, or the same fields at the top level (a body gives one form, not both). */
export function requestProfileOf(input: ProfileForms): RequestProfileInput | null | undefined {
  const { headers, cookies, basic_auth, custom_user_agents } = input;
  const topLevel = Object.fromEntries(Object.entries({ headers, cookies, basic_auth, custom_user_agents }).filter(([, value]) => value !== undefined));
  if (!Object.keys(topLevel).length) return input.request_profile;
  if (input.request_profile !== undefined) {
    const message = "give the request profile either as request_profile or as its fields at the top level (headers, cookies, basic_auth, custom_user_agents), not both";
    throw new InvalidError(`request_profile: ${message}.`, [{ field: "request_profile", message }]);
  }
  return topLevel as RequestProfileInput;
}

/**
 * What an update makes of a stored profile: `request_profile` replaces it whole (null removes it);
 * its fields at the top level change those fields only, as every other field of an update does,
 * the stored others kept (a `basic_auth` without `password` keeps the stored password). Undefined:
 * the update leaves the profile as it is.
 */
export function updatedRequestProfile(input: ProfileForms, stored: RequestProfileValue | null): RequestProfileValue | null | undefined {
  const given = requestProfileOf(input);
  if (given === undefined || input.request_profile !== undefined) return given === undefined ? undefined : sealRequestProfile(given, stored);
  const { basic_auth, ...others } = stored ?? {};
  // The stored password stays sealed: sealRequestProfile keeps it for a basic_auth given without one.
  const kept: RequestProfileInput = { ...others, ...(basic_auth && { basic_auth: { username: basic_auth.username } }) };
  return sealRequestProfile({ ...kept, ...given }, stored);
}
