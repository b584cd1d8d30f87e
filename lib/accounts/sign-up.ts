import { createHash, randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { accounts, signUpRequests, users } from "@/drizzle/schema";
import { createSignInLink, SIGN_IN_LINK_HOURS } from "@/lib/auth/sign-in-link";
import type { Database } from "@/lib/db";
import { isUniqueViolation } from "@/lib/db";
import { sendNow } from "@/lib/email/send";
import { InvalidError } from "@/lib/errors";
import { publicBaseUrl } from "@/lib/server/base-url";
import { checkNewPassword, hashPassword } from "./passwords";
import { findUserByEmail, normaliseEmail } from "./users";

export const SIGN_UP_LINK_HOURS = 24;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Sign-up never creates or changes a user: it e-mails the address. A new address gets a link that
 * creates the account when followed (the address is then proven); an address that has a user gets
 * a note and a sign-in link, and nothing changes. Both answer the same, so sign-up tells nobody
 * which addresses have accounts. The password is hashed in both cases, so both take as long.
 */
export async function requestSignUp(db: Database, input: { email: string; password: string; name?: string }): Promise<{ email: string }> {
  const email = normaliseEmail(input.email);
  checkNewPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const host = new URL(publicBaseUrl()).host;
  const existing = await findUserByEmail(db, email);
  if (existing) {
    const url = await createSignInLink(db, email);
    await sendNow(db, {
      accountId: existing.accountId,
      dedupeKey: `sign-up-existing:${new URL(url).searchParams.get("token")}`,
      to: email,
      template: "sign-up-existing",
      props: { url, host, expiresInHours: SIGN_IN_LINK_HOURS },
    });
    return { email };
  }
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  await db.delete(signUpRequests).where(lt(signUpRequests.expiresAt, new Date()));
  await db.insert(signUpRequests).values({
    tokenHash,
    email,
    name: input.name?.trim() || null,
    passwordHash,
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

const LINK_UNUSABLE = "This confirmation link is not valid any more (it works once and for 24 hours): sign up again to get a new one.";

/**
 * Follows a sign-up link: creates the account and its owner with the password chosen at sign-up,
 * the address now proven. Every pending sign-up of the address ends here. If the address got a
 * user meanwhile (a sign-in link, the CLI), that user is left as it is.
 */
export async function confirmSignUp(db: Database, token: string): Promise<{ email: string; created: boolean }> {
  const [request] = await db
    .delete(signUpRequests)
    .where(eq(signUpRequests.tokenHash, hashToken(token)))
    .returning();
  if (!request || request.expiresAt < new Date()) throw new InvalidError(LINK_UNUSABLE);
  await db.delete(signUpRequests).where(eq(signUpRequests.email, request.email));
  try {
    await db.transaction(async (tx) => {
      const [account] = await tx
        .insert(accounts)
        .values({ name: request.name ?? request.email })
        .returning();
      await tx.insert(users).values({ accountId: account!.id, email: request.email, name: request.name, passwordHash: request.passwordHash, emailVerifiedAt: new Date() });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { email: request.email, created: false };
    throw error;
  }
  return { email: request.email, created: true };
}
