import { randomBytes } from "node:crypto";
import { hashToken } from "@/lib/auth/token-hash";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { accounts, invitations, memberships, users } from "@/drizzle/schema";
import { publicBaseUrl } from "@/lib/config/base-url";
import type { AccountContext } from "@/lib/context";
import { ConflictError, InvalidError, NotFoundError, TooManyRequestsError } from "@/lib/core/errors";
import { type Role, roleAbilities } from "@/lib/core/roles";
import { type Database, isUniqueViolation } from "@/lib/db";
import { sendNow } from "@/lib/email/send";
import { checkNewPassword, hashPassword } from "./passwords";
import { findUserByEmail, normaliseEmail } from "./users";

const INVITATION_DAYS = 7;
/** An invitation is sent at most this many times (the first send included)… */
const INVITATION_SENDS_MAX = 5;
/** …and re-sent at most once in this many minutes. */
const RESEND_INTERVAL_MINUTES = 10;

type InvitationRow = typeof invitations.$inferSelect;
type Inviter = { userId: number; email: string; name: string | null };

export type InvitationState = "pending" | "accepted" | "declined" | "revoked" | "expired";

function invitationState(row: Pick<InvitationRow, "acceptedAt" | "declinedAt" | "revokedAt" | "expiresAt">, now = new Date()): InvitationState {
  if (row.acceptedAt) return "accepted";
  if (row.declinedAt) return "declined";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

export function toInvitationView(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    state: invitationState(row),
    send_count: row.sendCount,
    last_sent_at: row.lastSentAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** A new link (the older one stops working) and its e-mail. */
async function sendInvitation(db: Database, row: InvitationRow, inviter: Inviter): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  const [organization] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.accountId));
  await db
    .update(invitations)
    .set({ tokenHash: hashToken(token) })
    .where(eq(invitations.id, row.id));
  await sendNow(db, {
    accountId: row.accountId,
    dedupeKey: `invitation:${row.id}:${row.sendCount}`,
    to: row.email,
    template: "invitation",
    props: {
      url: `${publicBaseUrl()}/invitations/${token}`,
      organization: organization?.name ?? "an organization",
      role: row.role,
      invitedBy: inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email,
      grants: roleAbilities(row.role),
      expiresInDays: INVITATION_DAYS,
    },
  });
}

/** Invites an address with a role: refused when it belongs to a member or has an invitation waiting. */
export async function inviteMember(ctx: AccountContext, inviter: Inviter, input: { email: string; role: Role }): Promise<InvitationRow> {
  const email = normaliseEmail(input.email);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) {
    const [member] = await ctx.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.accountId, ctx.accountId), eq(memberships.userId, existing.id)));
    if (member) throw new ConflictError(`${email} is already a member of this organization.`, undefined, "already_member");
  }
  const [waiting] = await ctx.db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.accountId, ctx.accountId),
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
        isNull(invitations.declinedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    );
  if (waiting) throw new ConflictError(`${email} already has an invitation waiting (${waiting.id}): resend it, or revoke it first.`, undefined, "already_member");
  const [row] = await ctx.db
    .insert(invitations)
    .values({
      accountId: ctx.accountId,
      email,
      role: input.role,
      // Replaced by the first send's token at once; a placeholder nobody holds the token of.
      tokenHash: hashToken(randomBytes(32).toString("base64url")),
      invitedByUserId: inviter.userId,
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
    })
    .returning();
  await sendInvitation(ctx.db, row!, inviter);
  return row!;
}

async function pendingInvitation(ctx: AccountContext, id: number): Promise<InvitationRow> {
  const [row] = await ctx.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.accountId, ctx.accountId)));
  if (!row) throw new NotFoundError(`Invitation ${id} not found.`);
  return row;
}

/**
 * Sends the invitation again with a new link and 7 more days; capped, so that an organization cannot
 * use Preheat to flood an address: INVITATION_SENDS_MAX sends, one per 10 minutes.
 */
export async function resendInvitation(ctx: AccountContext, inviter: Inviter, id: number): Promise<InvitationRow> {
  const row = await pendingInvitation(ctx, id);
  const state = invitationState(row);
  if (state !== "pending" && state !== "expired") throw new ConflictError(`The invitation was ${state}: invite the address again.`, undefined, "invitation_unusable");
  if (row.sendCount >= INVITATION_SENDS_MAX)
    throw new ConflictError(`The invitation was sent ${row.sendCount} times, the most it may be: revoke it and invite the address again if it is really needed.`, undefined, "invitation_unusable");
  const wait = RESEND_INTERVAL_MINUTES * 60 - Math.floor((Date.now() - row.lastSentAt.getTime()) / 1000);
  if (wait > 0) throw new TooManyRequestsError(`The invitation was sent less than ${RESEND_INTERVAL_MINUTES} minutes ago: try again in ${Math.ceil(wait / 60)} minutes.`, wait);
  const [updated] = await ctx.db
    .update(invitations)
    .set({ sendCount: row.sendCount + 1, lastSentAt: new Date(), expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000) })
    .where(eq(invitations.id, id))
    .returning();
  await sendInvitation(ctx.db, updated!, inviter);
  return updated!;
}

export async function revokeInvitation(ctx: AccountContext, id: number): Promise<InvitationRow> {
  const row = await pendingInvitation(ctx, id);
  if (invitationState(row) !== "pending") throw new ConflictError(`The invitation was already ${invitationState(row)}.`, undefined, "invitation_unusable");
  const [revoked] = await ctx.db.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, id)).returning();
  return revoked!;
}

/** The organization's invitations, newest first (pending, accepted, declined, revoked, expired). */
export async function listInvitations(ctx: AccountContext): Promise<InvitationRow[]> {
  return ctx.db.select().from(invitations).where(eq(invitations.accountId, ctx.accountId)).orderBy(desc(invitations.id)).limit(100);
}

/** What the invitation page shows: the organization, the role and who invited, and whether the address has a user already. */
export async function invitationByToken(db: Database, token: string) {
  const [row] = await db
    .select({ invitation: invitations, organization: accounts.name, invitedBy: users.email })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .leftJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(eq(invitations.tokenHash, hashToken(token)));
  if (!row) return undefined;
  const hasUser = Boolean(await findUserByEmail(db, row.invitation.email));
  return {
    id: row.invitation.id,
    accountId: row.invitation.accountId,
    email: row.invitation.email,
    role: row.invitation.role,
    state: invitationState(row.invitation),
    organization: row.organization,
    invitedBy: row.invitedBy,
    hasUser,
  };
}

async function usableInvitation(db: Database, token: string): Promise<InvitationRow> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashToken(token)));
  if (!row) throw new ConflictError("This invitation link is not valid (a newer one may have been sent): ask for a new invitation.", undefined, "invitation_unusable");
  const state = invitationState(row);
  if (state !== "pending") throw new ConflictError(`This invitation was ${state}: ask for a new one.`, undefined, "invitation_unusable");
  return row;
}

/**
 * Accepts an invitation. The link proves the address (it was e-mailed there): a signed-in user of
 * that address joins; an address without a user gets one with the password chosen now. A user
 * signed in with another address cannot accept it.
 */
export async function acceptInvitation(
  db: Database,
  token: string,
  who: { signedIn?: { userId: number; email: string }; password?: string; name?: string },
): Promise<{ accountId: number; userId: number; email: string; role: Role }> {
  const row = await usableInvitation(db, token);
  let userId: number;
  if (who.signedIn) {
    if (who.signedIn.email !== row.email) throw new InvalidError(`This invitation is for ${row.email}, and you are signed in as ${who.signedIn.email}: sign out, then open the link again.`);
    userId = who.signedIn.userId;
  } else {
    const existing = await findUserByEmail(db, row.email);
    if (existing) throw new InvalidError(`${row.email} already has a Preheat user: sign in to accept.`);
    if (!who.password) throw new InvalidError("Choose a password.", [{ field: "password", message: "Required." }]);
    checkNewPassword(who.password);
    const passwordHash = await hashPassword(who.password);
    try {
      const [created] = await db
        .insert(users)
        .values({ email: row.email, name: who.name?.trim() || null, passwordHash, emailVerifiedAt: new Date(), accountId: row.accountId })
        .returning({ id: users.id });
      userId = created!.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw new InvalidError(`${row.email} already has a Preheat user: sign in to accept.`);
      throw error;
    }
  }
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date() })
      .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (!claimed) throw new ConflictError("This invitation was accepted already.", undefined, "invitation_unusable");
    await tx.insert(memberships).values({ accountId: row.accountId, userId, role: row.role }).onConflictDoNothing();
    await tx.update(users).set({ accountId: row.accountId }).where(eq(users.id, userId));
  });
  return { accountId: row.accountId, userId, email: row.email, role: row.role };
}

/** Declines an invitation: the link alone suffices, as for an unsubscribe. */
export async function declineInvitation(db: Database, token: string): Promise<{ id: number; accountId: number; email: string }> {
  const row = await usableInvitation(db, token);
  await db.update(invitations).set({ declinedAt: new Date() }).where(eq(invitations.id, row.id));
  return { id: row.id, accountId: row.accountId, email: row.email };
}

/**
 * The invitations waiting for an address, for the page of a user in no organization: which
 * organization, the role and who invited. Their links are in the e-mails only (each token's hash is stored).
 */
export async function pendingInvitationsTo(db: Database, email: string) {
  const rows = await db
    .select({ invitation: invitations, organization: accounts.name, invitedBy: users.email })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .leftJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(and(eq(invitations.email, normaliseEmail(email)), isNull(invitations.acceptedAt), isNull(invitations.declinedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, new Date())))
    .orderBy(desc(invitations.id));
  return rows.map((row) => ({ id: row.invitation.id, organization: row.organization, role: row.invitation.role, invitedBy: row.invitedBy, expiresAt: row.invitation.expiresAt }));
}
