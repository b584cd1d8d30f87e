import { randomBytes } from "node:crypto";
import { hashToken } from "@/lib/auth/token-hash";
import { eq, lt, or } from "drizzle-orm";
import { signUpRequests, users } from "@/drizzle/schema";
import { mayEmailVisitor } from "@/lib/auth/email-caps";
import { createSignInLink, SIGN_IN_LINK_HOURS, signInLinkKey } from "@/lib/accounts/sign-in-link";
import type { Database } from "@/lib/db";
import { isUniqueViolation } from "@/lib/db";
import { sendNow } from "@/lib/email/send";
import { InvalidError } from "@/lib/core/errors";
import { publicBaseUrl } from "@/lib/config/base-url";
import { checkNewPassword, hashPassword } from "./passwords";
import { createOrganization } from "./organizations";
import { findUserByEmail, normaliseEmail } from "./users";

const SIGN_UP_LINK_HOURS = 24;

/**
 * Sign-up never creates or changes a user, and takes no password: it e-mails the address. A new
 * address gets a link whose page asks for the password and creates the account (the address is then
 * proven, so nobody can claim an address that is not theirs with a password of their own); an address
 * that has a user gets a note and a sign-in link, and nothing changes. Both answer the same, so
 * sign-up tells nobody which addresses have accounts. A new sign-up ends the pending ones of its
 * address (their links stop working). Over the e-mail caps (lib/auth/email-caps.ts) nothing is sent
 * or changed, and the answer is the same again.
 */
export async function requestSignUp(db: Database, input: { email: string; name?: string; client: string }): Promise<{ email: string }> {
  const email = normaliseEmail(input.email);
  const existing = await findUserByEmail(db, email);
  const template = existing ? "sign-up-existing" : "sign-up-confirmation";
  if (!(await mayEmailVisitor(db, { to: email, client: input.client, template }))) return { email };
  const host = new URL(publicBaseUrl()).host;
  if (existing) {
    const url = await createSignInLink(db, email);
    await sendNow(db, {
      accountId: existing.accountId,
      dedupeKey: `sign-up-existing:${signInLinkKey(url)}`,
      to: email,
      template: "sign-up-existing",
      props: { url, host, expiresInHours: SIGN_IN_LINK_HOURS },
    });
    return { email };
  }
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  await db.delete(signUpRequests).where(or(lt(signUpRequests.expiresAt, new Date()), eq(signUpRequests.email, email)));
  await db.insert(signUpRequests).values({
    tokenHash,
    email,
    name: input.name?.trim() || null,
    expiresAt: new Date(Date.now() + SIGN_UP_LINK_HOURS * 3600_000),
  });
  await sendNow(db, {
    accountId: null,
    dedupeKey: `sign-up:${tokenHash}`,
    to: email,
    template: "sign-up-confirmation",
    props: { url: `${publicBaseUrl()}/signup/confirm?${new URLSearchParams({ token })}`, host, expiresInHours: SIGN_UP_LINK_HOURS },
  });
  return { email };
}

export const SIGN_UP_LINK_UNUSABLE = "This confirmation link is not valid any more (it works once, for 24 hours, and only the newest sign-up's link works): sign up again to get a new one.";

/** The address a sign-up link would create an account for, for its page to show; undefined once the link is unusable. */
export async function pendingSignUp(db: Database, token: string): Promise<{ email: string } | undefined> {
  const [request] = await db
    .select({ email: signUpRequests.email, expiresAt: signUpRequests.expiresAt })
    .from(signUpRequests)
    .where(eq(signUpRequests.tokenHash, hashToken(token)));
  return request && request.expiresAt >= new Date() ? { email: request.email } : undefined;
}

/**
 * Follows a sign-up link: creates the user with the password chosen on the link's page, the address
 * now proven, and the organization named there, which the user owns. Without a name the user
 * belongs to no organization yet, and the first page they open asks for one: an organization is
 * never named after its owner's address. A password the rules refuse spends nothing: the link still
 * works. Every pending sign-up of the address ends here. If the address got a user meanwhile (a
 * sign-in link, the CLI), that user is left as it is, its password too.
 */
export async function confirmSignUp(db: Database, input: { token: string; password: string; organizationName?: string }): Promise<{ email: string; created: boolean }> {
  checkNewPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const [request] = await db
    .delete(signUpRequests)
    .where(eq(signUpRequests.tokenHash, hashToken(input.token)))
    .returning();
  if (!request || request.expiresAt < new Date()) throw new InvalidError(SIGN_UP_LINK_UNUSABLE);
  await db.delete(signUpRequests).where(eq(signUpRequests.email, request.email));
  try {
    await db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values({ email: request.email, name: request.name, passwordHash, emailVerifiedAt: new Date() }).returning({ id: users.id });
      if (input.organizationName) await createOrganization(tx, { name: input.organizationName, ownerUserId: user!.id });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { email: request.email, created: false };
    throw error;
  }
  return { email: request.email, created: true };
}
