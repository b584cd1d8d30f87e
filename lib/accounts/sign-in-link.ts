import { createHash, randomBytes } from "node:crypto";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { publicBaseUrl } from "@/lib/config/base-url";
import { preheatAdapter } from "@/lib/accounts/next-auth-adapter";
import { serviceSecret } from "@/lib/auth/service-secret";
import { hashToken } from "@/lib/auth/token-hash";

export const SIGN_IN_LINK_HOURS = 24;

/** The secret next-auth signs sessions and hashes sign-in tokens with. */
export function sessionSecret(db: Database): Promise<string> {
  return serviceSecret(db, "session-secret", setting("NEXTAUTH_SECRET") || setting("AUTH_SECRET"));
}

/** next-auth's own hashing of e-mail tokens (sha256 of token + secret): its callback checks links this way. */
function hashSignInToken(token: string, secret: string): string {
  return createHash("sha256").update(`${token}${secret}`).digest("hex");
}

/** What tells one sign-in link's e-mail from another (its dedupe key): the hash of its token, never the token. */
export function signInLinkKey(url: string): string {
  return hashToken(new URL(url).searchParams.get("token") ?? url);
}

/**
 * A one-time sign-in link for an address that has a user, as next-auth's e-mail provider makes it,
 * for e-mails the service sends on its own (the note to an owner whose address was signed up again).
 */
export async function createSignInLink(db: Database, email: string, callbackPath = "/sites"): Promise<string> {
  const token = randomBytes(32).toString("hex");
  const secret = await sessionSecret(db);
  // Stored as next-auth stores its own links, so its e-mail callback accepts this one.
  await preheatAdapter(db).createVerificationToken!({ identifier: email, token: hashSignInToken(token, secret), expires: new Date(Date.now() + SIGN_IN_LINK_HOURS * 3600_000) });
  const base = publicBaseUrl();
  return `${base}/api/auth/callback/email?${new URLSearchParams({ callbackUrl: `${base}${callbackPath}`, token, email })}`;
}
