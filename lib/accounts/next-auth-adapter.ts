import { and, eq, lt } from "drizzle-orm";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import { users, verificationTokens } from "@/drizzle/schema";
import { createUser, findUserByEmail } from "@/lib/accounts/users";
import type { Database } from "@/lib/db";

type UserRow = typeof users.$inferSelect;

function toAdapterUser(user: UserRow): AdapterUser {
  return { id: String(user.id), email: user.email, emailVerified: user.emailVerifiedAt, name: user.name };
}

async function userById(db: Database, id: string) {
  const numeric = Number(id);
  if (!Number.isSafeInteger(numeric)) return undefined;
  const [user] = await db.select().from(users).where(eq(users.id, numeric));
  return user;
}

/**
 * What next-auth's e-mail provider needs of storage, on our own users table: sessions are JWTs, and
 * there are no OAuth accounts, so only users and one-time tokens are stored. A first sign-in link
 * for an unknown address creates its user, in no organization until they create or join one.
 */
export function preheatAdapter(db: Database): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">) {
      const created = await createUser(db, user.email, user.name ?? undefined);
      if (user.emailVerified) await db.update(users).set({ emailVerifiedAt: user.emailVerified }).where(eq(users.id, created.id));
      return toAdapterUser({ ...created, emailVerifiedAt: user.emailVerified ?? created.emailVerifiedAt });
    },
    async getUser(id) {
      const user = await userById(db, id);
      return user ? toAdapterUser(user) : null;
    },
    async getUserByEmail(email) {
      const user = await findUserByEmail(db, email).catch(() => undefined);
      return user ? toAdapterUser(user) : null;
    },
    async getUserByAccount() {
      return null;
    },
    async updateUser(user) {
      const [updated] = await db
        .update(users)
        .set({ ...(user.emailVerified !== undefined ? { emailVerifiedAt: user.emailVerified } : {}), ...(user.name !== undefined ? { name: user.name } : {}) })
        .where(eq(users.id, Number(user.id)))
        .returning();
      return toAdapterUser(updated!);
    },
    async linkAccount() {},
    async createVerificationToken(token) {
      // Expired links are of no use to anybody: drop them while we are here.
      await db.delete(verificationTokens).where(lt(verificationTokens.expires, new Date()));
      await db.insert(verificationTokens).values(token);
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      const [used] = await db
        .delete(verificationTokens)
        .where(and(eq(verificationTokens.identifier, identifier), eq(verificationTokens.token, token)))
        .returning();
      return used ?? null;
    },
  };
}
