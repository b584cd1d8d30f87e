import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, ne } from "drizzle-orm";
import { accounts, memberships, users, userSessions } from "@/drizzle/schema";
import { NotFoundError } from "@/lib/core/errors";
import type { Role } from "@/lib/core/roles";
import type { Database } from "@/lib/db";
import { createOrganization } from "./organizations";

/** Throttles the last-seen write so that a busy dashboard does not write on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
/** A session nobody used for this long is deleted: the cookie's own lifetime. */
export const SESSION_DAYS = 30;

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

type Device = { userAgent: string | null; clientAddress: string | null };

/** A new session row for a user who just signed in, in the organization the user last worked in. */
export async function openSession(db: Database, userId: number, device: Device): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  const [user] = await db.select({ accountId: users.accountId }).from(users).where(eq(users.id, userId));
  await db.insert(userSessions).values({ id, userId, accountId: user?.accountId ?? null, userAgent: device.userAgent?.slice(0, 500) ?? null, clientAddress: device.clientAddress });
  return id;
}

/**
 * The session's user, organization and role, or undefined once the session was ended (revoked, the
 * password changed, the member removed), expired or never existed. A session whose organization is
 * gone moves to another of the user's organizations, or to a new one the user owns.
 */
export async function sessionUser(db: Database, sessionId: string): Promise<SessionUser | undefined> {
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
  if (now - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS)
    await db
      .update(userSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(userSessions.id, sessionId));
  const base = { sessionId, userId: session.userId, email: row.email, name: row.name, operator: row.operatorSince !== null };
  if (session.accountId !== null && row.role)
    return {
      ...base,
      accountId: session.accountId,
      role: row.role,
      mustEnableTwoFactor: Boolean(row.requireTwoFactor && !row.totpEnabledAt),
      suspension: row.suspendedAt ? { reason: row.suspensionReason } : null,
    };
  // The session's organization is gone: it moves to another of the user's, read as any other.
  await moveToAnotherOrganization(db, session.userId, sessionId);
  return sessionUser(db, sessionId);
}

async function moveToAnotherOrganization(db: Database, userId: number, sessionId: string): Promise<void> {
  const [first] = await db.select({ accountId: memberships.accountId, role: memberships.role }).from(memberships).where(eq(memberships.userId, userId)).orderBy(asc(memberships.createdAt)).limit(1);
  const [user] = await db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  const target = first ?? { accountId: await db.transaction((tx) => createOrganization(tx, { name: user?.name ?? user?.email ?? "My organization", ownerUserId: userId })), role: "owner" as const };
  await db.update(userSessions).set({ accountId: target.accountId }).where(eq(userSessions.id, sessionId));
  await db.update(users).set({ accountId: target.accountId }).where(eq(users.id, userId));
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
  const rows = await db.select().from(userSessions).where(eq(userSessions.userId, user.userId)).orderBy(desc(userSessions.lastSeenAt), desc(userSessions.createdAt));
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

/** A member removed from an organization is out of it at once: the sessions working in it end. */
export async function endSessionsIn(db: Database, userId: number, accountId: number): Promise<void> {
  await db.delete(userSessions).where(and(eq(userSessions.userId, userId), eq(userSessions.accountId, accountId)));
}
