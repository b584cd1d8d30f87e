import { and, asc, eq, ne, sql } from "drizzle-orm";
import { accounts, memberships, users } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { ConflictError, NotFoundError } from "@/lib/core/errors";
import type { Role } from "@/lib/core/roles";
import type { Database } from "@/lib/db";
import { forgetRememberedKeys, keysCreatedBy, revokeKeysCreatedBy } from "@/lib/auth/api-keys";
import { type AuditActor, recordAuditEvent } from "./audit";
import { endSessionsIn } from "./sessions";

type ApiKeyRef = { id: number; prefix: string };

/** The organization's members, oldest first. */
export async function listMembers(ctx: AccountContext) {
  return ctx.db
    .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, joinedAt: memberships.createdAt, twoFactor: sql<boolean>`${users.totpEnabledAt} is not null` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, ctx.accountId))
    .orderBy(asc(memberships.createdAt), asc(users.id));
}

export type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

export function toMemberView(member: MemberRow) {
  return { user_id: member.userId, email: member.email, name: member.name, role: member.role, two_factor: member.twoFactor, joined_at: member.joinedAt.toISOString() };
}

async function membership(db: Database, accountId: number, userId: number) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
  if (!row) throw new NotFoundError(`Member ${userId} not found.`);
  return row;
}

/** An organization always keeps an owner: refuses to take away `userId`'s ownership when no other owner is left. */
async function keepAnOwner(db: Database, accountId: number, userId: number, what: string): Promise<void> {
  const [other] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner"), ne(memberships.userId, userId)))
    .limit(1);
  if (!other) throw new ConflictError(`The organization's last owner cannot ${what}: make another member owner first.`, undefined, "last_owner");
}

/** Runs `work` with the organization's row locked, so that two owners demoting each other at once cannot leave none. */
function withOrganizationLocked<T>(ctx: AccountContext, work: (tx: Database) => Promise<T>): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, ctx.accountId)).for("update");
    return work(tx);
  });
}

/** Gives a member another role; the last owner cannot be demoted. */
export async function changeRole(ctx: AccountContext, userId: number, role: Role): Promise<MemberRow> {
  await withOrganizationLocked(ctx, async (tx) => {
    const current = await membership(tx, ctx.accountId, userId);
    if (current.role === "owner" && role !== "owner") await keepAnOwner(tx, ctx.accountId, userId, "be demoted");
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.accountId, ctx.accountId), eq(memberships.userId, userId)));
  });
  const [member] = (await listMembers(ctx)).filter((m) => m.userId === userId);
  return member!;
}

/** How a member leaves: whether the keys they created go with them, who decided, from where (for the audit log). */
export type Removal = { revokeKeys: boolean; by: AuditActor; clientAddress?: string | null };

/**
 * Takes a member out of the organization (an owner removing someone, or a member leaving): the
 * sessions working in it end at once when removed, and move on to the user's other organizations when leaving. The keys the member created still work for whoever holds
 * them, the member gone or not, so they are revoked with the membership unless `revokeKeys` is
 * false (an owner's choice, for a key an integration depends on); the audit log records each key
 * revoked or kept. The last owner cannot leave.
 */
export async function removeMember(ctx: AccountContext, userId: number, removal: Removal): Promise<{ revoked: ApiKeyRef[]; kept: ApiKeyRef[] }> {
  const keys = await withOrganizationLocked(ctx, async (tx) => {
    const current = await membership(tx, ctx.accountId, userId);
    if (current.role === "owner") await keepAnOwner(tx, ctx.accountId, userId, "leave");
    await tx.delete(memberships).where(and(eq(memberships.accountId, ctx.accountId), eq(memberships.userId, userId)));
    return removal.revokeKeys ? { revoked: await revokeKeysCreatedBy(tx, ctx.accountId, userId), kept: [] } : { revoked: [], kept: await keysCreatedBy(tx, ctx.accountId, userId) };
  });
  if (keys.revoked.length) forgetRememberedKeys(ctx.db);
  await endSessionsIn(ctx.db, userId, ctx.accountId, { removedBy: removal.by.userId === userId ? "self" : "owner" });
  await ctx.db
    .update(users)
    .set({ accountId: null })
    .where(and(eq(users.id, userId), eq(users.accountId, ctx.accountId)));
  for (const [action, list] of [
    ["key.revoked", keys.revoked],
    ["key.kept", keys.kept],
  ] as const) {
    for (const key of list) {
      await recordAuditEvent(ctx.db, { accountId: ctx.accountId, actor: removal.by, action, targetType: "key", targetId: key.id, clientAddress: removal.clientAddress });
    }
  }
  return keys;
}
