import { and, asc, eq, isNull } from "drizzle-orm";
import { accounts, memberships, users } from "@/drizzle/schema";
import type { Role } from "@/lib/core/roles";
import type { Database } from "@/lib/db";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * A new organization with `userId` as its owner; it becomes the user's organization for new
 * sessions when the user had none. In the caller's transaction, so that an organization never
 * exists without its owner.
 */
export async function createOrganization(tx: Tx | Database, input: { name: string; ownerUserId: number }): Promise<number> {
  const [account] = await tx.insert(accounts).values({ name: input.name }).returning({ id: accounts.id });
  await tx.insert(memberships).values({ accountId: account!.id, userId: input.ownerUserId, role: "owner" });
  await tx
    .update(users)
    .set({ accountId: account!.id })
    .where(and(eq(users.id, input.ownerUserId), isNull(users.accountId)));
  return account!.id;
}

/** The user's role in the organization, or undefined when the user is not a member. */
export async function roleIn(db: Database, userId: number, accountId: number): Promise<Role | undefined> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)));
  return row?.role;
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
