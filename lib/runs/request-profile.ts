import type { RequestProfileValue } from "@/drizzle/schema";
import { decryptSecret, SecretsError } from "@/lib/secrets";

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
