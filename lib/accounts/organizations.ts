import { and, asc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { accounts, memberships, users } from "@/drizzle/schema";
import { ConflictError, InvalidError, NotFoundError } from "@/lib/core/errors";
import type { Role } from "@/lib/core/roles";
import type { Database } from "@/lib/db";
import { AccountSuspendedError, newOrganizationsBlockedMessage } from "@/lib/plans/suspension";

/**
 * Refuses a new organization to an owner or admin of one the operator suspended with
 * `block_new_organizations` (403 `account_suspended`): otherwise the suspension ends with a fresh
 * organization, its plan and quota new. A member or viewer there runs nothing of it and may go on.
 */
async function assertMayCreateOrganization(tx: Database, userId: number): Promise<void> {
  const [blocking] = await tx
    .select({ name: accounts.name, reason: accounts.suspensionReason })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, userId), inArray(memberships.role, ["owner", "admin"]), isNotNull(accounts.suspendedAt), eq(accounts.suspensionBlocksNewOrganizations, true)))
    .limit(1);
  if (blocking) throw new AccountSuspendedError(blocking.reason, newOrganizationsBlockedMessage(blocking.name, blocking.reason));
}

/**
 * A new organization with `userId` as its owner; it becomes the user's organization for new
 * sessions when the user had none. In the caller's transaction, so that an organization never
 * exists without its owner. Refused while an organization the user manages is suspended with
 * `block_new_organizations`.
 */
export async function createOrganization(tx: Database, input: { name: string; ownerUserId: number }): Promise<number> {
  await assertMayCreateOrganization(tx, input.ownerUserId);
  const [account] = await tx.insert(accounts).values({ name: input.name }).returning({ id: accounts.id });
  await tx.insert(memberships).values({ accountId: account!.id, userId: input.ownerUserId, role: "owner" });
  await tx
    .update(users)
    .set({ accountId: account!.id })
    .where(and(eq(users.id, input.ownerUserId), isNull(users.accountId)));
  return account!.id;
}

/** The organizations the user belongs to, oldest membership first, with the user's role in each. */
export async function organizationsOf(db: Database, userId: number) {
  return db
    .select({ id: accounts.id, name: accounts.name, role: memberships.role, requireTwoFactor: accounts.requireTwoFactor })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(accounts.id));
}

/** Who hears about an organization by e-mail (run reports, a disabled webhook): its first owner. */
export async function organizationOwner(db: Database, accountId: number) {
  const [owner] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")))
    .orderBy(asc(memberships.createdAt), asc(users.id))
    .limit(1);
  return owner;
}

/** `currentId`: the organization the session works in, null when it works in none. */
export function toOrganizationView(organization: { id: number; name: string; role: Role; requireTwoFactor?: boolean }, currentId: number | null) {
  return { id: organization.id, name: organization.name, role: organization.role, require_two_factor: organization.requireTwoFactor ?? false, current: organization.id === currentId };
}

/**
 * Renames the organization, or asks every member for a second factor: an owner turns that on only
 * with two-factor sign-in of their own, so that nobody locks themselves out of the settings.
 */
export async function updateOrganization(db: Database, by: { accountId: number; userId: number }, changes: { name?: string; require_two_factor?: boolean }): Promise<void> {
  if (changes.require_two_factor) {
    const [owner] = await db.select({ totpEnabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, by.userId));
    if (!owner?.totpEnabledAt) throw new ConflictError("Turn on your own two-factor sign-in (Account page) before requiring it of every member.");
  }
  await db
    .update(accounts)
    .set({ ...(changes.name !== undefined ? { name: changes.name } : {}), ...(changes.require_two_factor !== undefined ? { requireTwoFactor: changes.require_two_factor } : {}) })
    .where(eq(accounts.id, by.accountId));
}

/**
 * Deletes the organization with everything it holds (sites, sitemaps, boosts, runs, webhooks, keys,
 * invitations, the audit log); its members' users stay, and their sessions in it move to another of
 * their organizations. The name typed again guards against a slip.
 */
export async function deleteOrganization(db: Database, accountId: number, confirmName: string): Promise<void> {
  const [organization] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  if (!organization) throw new NotFoundError("Organization not found.");
  if (confirmName.trim() !== organization.name)
    throw new InvalidError(`Type the organization's name, ${organization.name}, to delete it.`, [{ field: "confirm_name", message: "Not the organization's name." }]);
  await db.delete(accounts).where(eq(accounts.id, accountId));
}
