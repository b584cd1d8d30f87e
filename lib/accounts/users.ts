import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, users } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { InvalidError } from "@/lib/core/errors";

export function normaliseEmail(email: string): string {
  const normalised = email.trim().toLowerCase();
  if (!z.email().safeParse(normalised).success) throw new InvalidError(`${JSON.stringify(email)} is not a valid e-mail address.`);
  return normalised;
}

export async function findUserByEmail(db: Database, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)));
  return user;
}

/** Who hears about an account by e-mail (run reports, a disabled webhook): its first user. */
export async function accountOwner(db: Database, accountId: number) {
  const [owner] = await db.select().from(users).where(eq(users.accountId, accountId)).orderBy(asc(users.id)).limit(1);
  return owner;
}

/** Every user owns an account; the first user of an e-mail address creates it. */
export async function findOrCreateUser(db: Database, email: string, name?: string) {
  const address = normaliseEmail(email);
  const existing = await findUserByEmail(db, address);
  if (existing) return { user: existing, created: false };
  return db.transaction(async (tx) => {
    const [account] = await tx
      .insert(accounts)
      .values({ name: name?.trim() || address })
      .returning();
    const [user] = await tx
      .insert(users)
      .values({ accountId: account!.id, email: address, name: name?.trim() || null })
      .returning();
    return { user: user!, created: true };
  });
}
