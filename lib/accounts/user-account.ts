import { randomBytes } from "node:crypto";
import { hashToken } from "@/lib/auth/token-hash";
import { and, eq, lt, ne, or } from "drizzle-orm";
import { accounts, emailChanges, memberships, users } from "@/drizzle/schema";
import { publicBaseUrl } from "@/lib/config/base-url";
import { ConflictError, InvalidError } from "@/lib/core/errors";
import { type Database, isUniqueViolation } from "@/lib/db";
import { sendNow } from "@/lib/email/send";
import { verifyPassword } from "./passwords";
import { findUserByEmail, normaliseEmail } from "./users";

const EMAIL_CHANGE_HOURS = 24;

type Who = { userId: number; email: string };

/** A user with a password proves it again before changing the address or deleting itself: a stolen session is not enough. */
async function provePassword(db: Database, who: Who, password: string | undefined): Promise<void> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, who.userId));
  if (!user?.passwordHash) return;
  if (!password || !(await verifyPassword(db, who.email, password)))
    throw new InvalidError("Your current password is needed for this, and it was not right.", [{ field: "password", message: "Not right." }]);
}

/**
 * Asks to sign in with another address: the new address gets a link that makes the change (it must
 * be proven), the old one a notice. Until the link is followed, nothing changes.
 */
export async function requestEmailChange(db: Database, who: Who, input: { new_email: string; password?: string }): Promise<{ new_email: string }> {
  const newEmail = normaliseEmail(input.new_email, "new_email");
  if (newEmail === who.email) throw new InvalidError("That is your address already.", [{ field: "new_email", message: "Your current address." }]);
  await provePassword(db, who, input.password);
  if (await findUserByEmail(db, newEmail)) throw new ConflictError(`${newEmail} is the address of another Preheat user.`);
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  await db.delete(emailChanges).where(or(eq(emailChanges.userId, who.userId), lt(emailChanges.expiresAt, new Date())));
  await db.insert(emailChanges).values({ tokenHash, userId: who.userId, newEmail, expiresAt: new Date(Date.now() + EMAIL_CHANGE_HOURS * 3600_000) });
  const host = new URL(publicBaseUrl()).host;
  const [member] = await db.select({ accountId: users.accountId }).from(users).where(eq(users.id, who.userId));
  const accountId = member?.accountId ?? null;
  await sendNow(db, {
    accountId,
    dedupeKey: `email-change:${tokenHash}`,
    to: newEmail,
    template: "email-change-confirmation",
    props: { url: `${publicBaseUrl()}/email-change/${token}`, host, oldEmail: who.email, expiresInHours: EMAIL_CHANGE_HOURS },
  });
  await sendNow(db, { accountId, dedupeKey: `email-change-requested:${tokenHash}`, to: who.email, template: "email-change-notice", props: { host, newEmail, stage: "requested" } });
  return { new_email: newEmail };
}

const UNUSABLE = "This link is not valid any more (it works once, for 24 hours, and only the newest request's link works): ask for the change again on the Account page.";

/** Follows the new address's link: the user signs in with it from now on, and the old address is told. */
export async function confirmEmailChange(db: Database, token: string): Promise<{ email: string }> {
  const [change] = await db
    .delete(emailChanges)
    .where(eq(emailChanges.tokenHash, hashToken(token)))
    .returning();
  if (!change || change.expiresAt < new Date()) throw new InvalidError(UNUSABLE);
  const [before] = await db.select({ email: users.email, accountId: users.accountId }).from(users).where(eq(users.id, change.userId));
  if (!before) throw new InvalidError(UNUSABLE);
  try {
    await db.update(users).set({ email: change.newEmail, emailVerifiedAt: new Date() }).where(eq(users.id, change.userId));
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`${change.newEmail} became the address of another Preheat user meanwhile.`);
    throw error;
  }
  const host = new URL(publicBaseUrl()).host;
  await sendNow(db, {
    accountId: before.accountId,
    dedupeKey: `email-changed:${change.tokenHash}`,
    to: before.email,
    template: "email-change-notice",
    props: { host, newEmail: change.newEmail, stage: "done" },
  });
  return { email: change.newEmail };
}

/**
 * Deletes the user: its memberships and sessions go with it. An organization it alone owns goes too
 * when nobody else is in it; with other members, another owner must be named first (409 last_owner).
 */
export async function deleteUser(db: Database, who: Who, input: { confirm_email: string; password?: string }): Promise<void> {
  if (input.confirm_email.trim().toLowerCase() !== who.email) throw new InvalidError("Type your e-mail address to delete your user.", [{ field: "confirm_email", message: "Not your address." }]);
  await provePassword(db, who, input.password);
  const owned = await db
    .select({ accountId: memberships.accountId, name: accounts.name })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, who.userId), eq(memberships.role, "owner")));
  const alone: number[] = [];
  for (const organization of owned) {
    const others = await db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.accountId, organization.accountId), ne(memberships.userId, who.userId)));
    if (!others.length) alone.push(organization.accountId);
    else if (!others.some((o) => o.role === "owner"))
      throw new ConflictError(`You are the last owner of ${organization.name}: make another member owner, or remove them, first.`, undefined, "last_owner");
  }
  await db.transaction(async (tx) => {
    for (const accountId of alone) await tx.delete(accounts).where(eq(accounts.id, accountId));
    await tx.delete(users).where(eq(users.id, who.userId));
  });
}
