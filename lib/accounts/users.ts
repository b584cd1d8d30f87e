import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "@/drizzle/schema";
import { InvalidError } from "@/lib/core/errors";
import { type Database, isUniqueViolation } from "@/lib/db";
import { createOrganization } from "./organizations";

/** `field`: the request's name for the address, which the refusal's detail names for a form to show it under. */
export function normaliseEmail(email: string, field = "email"): string {
  const normalised = email.trim().toLowerCase();
  if (!z.email().safeParse(normalised).success) {
    const predicate = `${JSON.stringify(email)} is not a valid e-mail address`;
    throw new InvalidError(`${predicate}.`, [{ field, message: predicate }]);
  }
  return normalised;
}

export async function findUserByEmail(db: Database, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)));
  return user;
}

type UserWithOrganization = typeof users.$inferSelect & { accountId: number };

/**
 * The user of an e-mail address with an organization to work in, for the operator's CLI (a key
 * needs an organization): a new address creates the user and an organization it owns, and so does
 * an existing user who belongs to none any more.
 */
export async function findOrCreateUser(db: Database, email: string, name?: string): Promise<{ user: UserWithOrganization; created: boolean }> {
  const address = normaliseEmail(email);
  const existing = await findUserByEmail(db, address);
  if (existing?.accountId) return { user: { ...existing, accountId: existing.accountId }, created: false };
  return db.transaction(async (tx) => {
    const [user] = existing
      ? [existing]
      : await tx
          .insert(users)
          .values({ email: address, name: name?.trim() || null })
          .returning();
    const accountId = await createOrganization(tx, { name: name?.trim() || address, ownerUserId: user!.id });
    return { user: { ...user!, accountId }, created: !existing };
  });
}

/**
 * The user of a first sign-in link to a new address, in no organization: the first page they open
 * asks them to create one, named by them, or to wait for an invitation. An address that got its user
 * meanwhile (two links followed at once) answers that user.
 */
export async function createUser(db: Database, email: string, name?: string): Promise<typeof users.$inferSelect> {
  const address = normaliseEmail(email);
  try {
    const [user] = await db
      .insert(users)
      .values({ email: address, name: name?.trim() || null })
      .returning();
    return user!;
  } catch (error) {
    const existing = isUniqueViolation(error) ? await findUserByEmail(db, address) : undefined;
    if (existing) return existing;
    throw error;
  }
}
