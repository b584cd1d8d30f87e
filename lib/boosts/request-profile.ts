import type { RequestProfileValue } from "@/drizzle/schema";
import { InvalidError } from "@/lib/errors";
import { encryptSecret, NO_SECRETS_KEY, secretsKeyConfigured } from "@/lib/secrets";
import type { RequestProfileInput, RequestProfilePayload } from "./schemas";

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
