import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, isNotNull, isNull, ne } from "drizzle-orm";
import { accounts, memberships, users, userSessions } from "@/drizzle/schema";
import { NotFoundError } from "@/lib/core/errors";
import type { Role } from "@/lib/core/roles";
import type { Database } from "@/lib/db";

/** Throttles the last-seen write so that a busy dashboard does not write on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
/** A session nobody used for this long is deleted: the cookie's own lifetime. */
export const SESSION_DAYS = 30;

/** A signed-in user, whether or not they belong to an organization. */
export type SignedInUser = Pick<SessionUser, "sessionId" | "userId" | "email" | "name" | "operator">;

/** The signed-in user of a request: who, in which organization, with which role, through which session. */
export type SessionUser = {
  sessionId: string;
  userId: number;
  accountId: number;
  role: Role;
  email: string;
  name: string | null;
  /** The organization asks for a second factor and this user has none yet: only the Account page is open. */
  mustEnableTwoFactor: boolean;
  /** The organization is suspended by the operator: only one's own account is open, and the pages say why. */
  suspension: { reason: string | null } | null;
  /** The operator granted this user the operator console (`users grant-operator`). */
  operator: boolean;
};

/**
 * What a session cookie stands for: a member at work in an organization; a user who belongs to none
 * (removed from the last one, or new: they create one or wait for an invitation); or a session an
 * owner ended by removing the member, which its next page explains.
 */
export type SessionState = { kind: "member"; user: SessionUser } | { kind: "no_organization"; user: SignedInUser } | { kind: "removed"; organization: string };

type Device = { userAgent: string | null; clientAddress: string | null };

/**
 * A new session row for a user who just signed in, in the organization the user last worked in. The
 * sessions an owner's removal ended have said so on the page that asked for this sign-in: they go.
 */
export async function openSession(db: Database, userId: number, device: Device): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  const [user] = await db.select({ accountId: users.accountId }).from(users).where(eq(users.id, userId));
  await db.delete(userSessions).where(and(eq(userSessions.userId, userId), isNotNull(userSessions.removedFrom)));
  await db.insert(userSessions).values({ id, userId, accountId: user?.accountId ?? null, userAgent: device.userAgent?.slice(0, 500) ?? null, clientAddress: device.clientAddress });
  return id;
}

/**
 * The session's state, or undefined once the session was ended (revoked, the password changed),
 * expired or never existed. A session whose organization is gone (deleted, or left) moves to another
 * of the user's organizations; without one, the user belongs to none, and nothing is created for them.
 */
export async function sessionState(db: Database, sessionId: string): Promise<SessionState | undefined> {
  const [row] = await db
    .select({
      session: userSessions,
      email: users.email,
      name: users.name,
      totpEnabledAt: users.totpEnabledAt,
      role: memberships.role,
      requireTwoFactor: accounts.requireTwoFactor,
      suspendedAt: accounts.suspendedAt,
      suspensionReason: accounts.suspensionReason,
      operatorSince: users.operatorSince,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .leftJoin(memberships, and(eq(memberships.accountId, userSessions.accountId), eq(memberships.userId, userSessions.userId)))
    .leftJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(userSessions.id, sessionId));
  if (!row) return undefined;
  const { session } = row;
  const now = Date.now();
  if (now - session.lastSeenAt.getTime() > SESSION_DAYS * 86_400_000) {
    await db.delete(userSessions).where(eq(userSessions.id, sessionId));
    return undefined;
  }
  if (session.removedFrom !== null) return { kind: "removed", organization: session.removedFrom };
  if (now - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS)
    await db
      .update(userSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(userSessions.id, sessionId));
  const user = { sessionId, userId: session.userId, email: row.email, name: row.name, operator: row.operatorSince !== null };
  if (session.accountId !== null && row.role)
    return {
      kind: "member",
      user: {
        ...user,
        accountId: session.accountId,
        role: row.role,
        mustEnableTwoFactor: Boolean(row.requireTwoFactor && !row.totpEnabledAt),
        suspension: row.suspendedAt ? { reason: row.suspensionReason } : null,
      },
    };
  // The session's organization is gone: it moves to another of the user's, read as any other.
  if (await moveToAnotherOrganization(db, { userId: session.userId, sessionId, accountId: session.accountId })) return sessionState(db, sessionId);
  return { kind: "no_organization", user };
}

/** Moves the session to the user's oldest membership; false, with the session in no organization, when the user has none. */
async function moveToAnotherOrganization(db: Database, { userId, sessionId, ...session }: { userId: number; sessionId: string; accountId: number | null }): Promise<boolean> {
  const [first] = await db.select({ accountId: memberships.accountId }).from(memberships).where(eq(memberships.userId, userId)).orderBy(asc(memberships.createdAt)).limit(1);
  const accountId = first?.accountId ?? null;
  // Already in no organization, and still in none: nothing to write on each of its requests.
  if (accountId === null && session.accountId === null) return false;
  await db.update(userSessions).set({ accountId }).where(eq(userSessions.id, sessionId));
  await db.update(users).set({ accountId }).where(eq(users.id, userId));
  return accountId !== null;
}

/** Works in another organization the user belongs to, in this session and in the user's next ones. */
export async function switchOrganization(db: Database, user: Pick<SessionUser, "userId" | "sessionId">, accountId: number): Promise<void> {
  const [member] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, user.userId), eq(memberships.accountId, accountId)));
  if (!member) throw new NotFoundError(`Organization ${accountId} not found.`);
  await db.update(userSessions).set({ accountId }).where(eq(userSessions.id, user.sessionId));
  await db.update(users).set({ accountId }).where(eq(users.id, user.userId));
}

/** How a session is named on the Account page and in the API: derived from its id, which stays inside the cookie. */
function publicSessionId(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("base64url").slice(0, 24);
}

/** The user's sessions, most recently seen first. */
export async function listSessions(db: Database, user: Pick<SessionUser, "userId" | "sessionId">) {
  const rows = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, user.userId), isNull(userSessions.removedFrom)))
    .orderBy(desc(userSessions.lastSeenAt), desc(userSessions.createdAt));
  return rows.map((row) => ({
    id: publicSessionId(row.id),
    current: row.id === user.sessionId,
    user_agent: row.userAgent,
    client_address: row.clientAddress,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
  }));
}

/** Ends one of the user's sessions, named by its public id; another user's session is not found. */
export async function revokeSession(db: Database, userId: number, publicId: string): Promise<void> {
  const rows = await db.select({ id: userSessions.id }).from(userSessions).where(eq(userSessions.userId, userId));
  const match = rows.find((row) => publicSessionId(row.id) === publicId);
  if (!match) throw new NotFoundError("Session not found.");
  await db.delete(userSessions).where(eq(userSessions.id, match.id));
}

/** Ends every session of the user but `keep` (the one asking), or all of them. */
export async function endSessions(db: Database, userId: number, keep?: string): Promise<number> {
  const ended = await db
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), keep ? ne(userSessions.id, keep) : undefined))
    .returning({ id: userSessions.id });
  return ended.length;
}

/**
 * A member out of an organization is out of it at once. Removed by an owner, the sessions working
 * in it end, each keeping the organization's name for its next page to say why; having left, the
 * user's sessions move on to another of their organizations, or to none.
 */
export async function endSessionsIn(db: Database, userId: number, accountId: number, how: { removedBy: "owner" | "self" }): Promise<void> {
  const [organization] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  const inIt = and(eq(userSessions.userId, userId), eq(userSessions.accountId, accountId));
  if (how.removedBy === "self") await db.update(userSessions).set({ accountId: null }).where(inIt);
  else
    await db
      .update(userSessions)
      .set({ accountId: null, removedFrom: organization?.name ?? "an organization" })
      .where(inIt);
}
