import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { users } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { InvalidError } from "@/lib/core/errors";
import { endSessions } from "./sessions";
import { findUserByEmail } from "./users";

export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase, short enough that hashing stays cheap. */
const MAX_PASSWORD_BYTES = 72;

/** scrypt at OWASP's recommended cost (N=2^15, r=8, p=1): about 32 MiB and tens of ms, in libuv's thread pool. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;

export function checkNewPassword(password: string, field = "password"): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new InvalidError(`The password needs at least ${MIN_PASSWORD_LENGTH} characters.`, [{ field, message: `At least ${MIN_PASSWORD_LENGTH} characters.` }]);
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
    throw new InvalidError(`The password may have at most ${MAX_PASSWORD_BYTES} bytes.`, [{ field, message: `At most ${MAX_PASSWORD_BYTES} bytes.` }]);
}

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize("NFC"), salt, KEY_BYTES, { ...cost, maxmem: SCRYPT.maxmem }, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt$N$r$p$salt$key`: the cost travels with the hash, so it can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether the password matches a stored hash: ours (scrypt), or a bcrypt hash of earlier versions. */
async function matches(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith("$2")) return bcrypt.compare(password, stored);
  const [scheme, N, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const needsRehash = (stored: string) => !stored.startsWith(`scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$`);

// Compared against when there is no user, so that timing does not tell which addresses exist.
let dummyHash: Promise<string> | undefined;

/**
 * The user whose password this is, or undefined; as slow for unknown addresses as for known ones.
 * A hash of an older kind (bcrypt) is replaced by today's on a successful sign-in.
 */
export async function verifyPassword(db: Database, email: string, password: string) {
  const user = await findUserByEmail(db, email).catch(() => undefined);
  dummyHash ??= hashPassword("no user has this password");
  const ok = await matches(password, user?.passwordHash ?? (await dummyHash));
  if (!ok || !user?.passwordHash) return undefined;
  if (needsRehash(user.passwordHash))
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  return user;
}

/**
 * Sets or changes a signed-in user's password. Changing one needs the current password; a user
 * without one (created by the CLI or a sign-in link) proved the address by signing in. Either way
 * every other session of the user ends (someone who had the old password, or a stolen cookie, is out
 * at once); the one asking goes on.
 */
export async function changePassword(db: Database, session: { userId: number; sessionId: string }, input: { current_password?: string; new_password: string }): Promise<void> {
  const { userId } = session;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new InvalidError("This user does not exist any more.");
  if (user.passwordHash) {
    if (!input.current_password) throw new InvalidError("Enter your current password to change it.", [{ field: "current_password", message: "Required to change the password." }]);
    if (!(await matches(input.current_password, user.passwordHash))) throw new InvalidError("The current password is not right.", [{ field: "current_password", message: "Not right." }]);
  }
  checkNewPassword(input.new_password, "new_password");
  const [changed] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.new_password) })
    .where(eq(users.id, user.id))
    .returning({ id: users.id });
  if (!changed) throw new InvalidError("This user does not exist any more.");
  await endSessions(db, userId, session.sessionId);
}

export async function hasPassword(db: Database, userId: number): Promise<boolean> {
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return Boolean(user?.passwordHash);
}
