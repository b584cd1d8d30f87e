import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { users } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { ConflictError, InvalidError } from "@/lib/errors";
import { findOrCreateUser, findUserByEmail, normaliseEmail } from "./users";

export const MIN_PASSWORD_LENGTH = 10;
/** bcrypt reads 72 bytes at most: longer passwords would be silently cut. */
const MAX_PASSWORD_BYTES = 72;
const BCRYPT_ROUNDS = 12;

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new InvalidError(`The password needs at least ${MIN_PASSWORD_LENGTH} characters.`, { password: `At least ${MIN_PASSWORD_LENGTH} characters.` });
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw new InvalidError(`The password may have at most ${MAX_PASSWORD_BYTES} bytes.`, { password: `At most ${MAX_PASSWORD_BYTES} bytes.` });
}

/**
 * Sign-up: creates the account and its first user with a password. An address that already has a
 * password is refused; one known only from the CLI or a sign-in link gets its password now.
 */
export async function signUpWithPassword(db: Database, input: { email: string; password: string; name?: string }) {
  const email = normaliseEmail(input.email);
  checkPassword(input.password);
  const existing = await findUserByEmail(db, email);
  if (existing?.passwordHash) throw new ConflictError("An account with this e-mail address exists already: sign in instead.", { email: "Already registered." });
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_ROUNDS);
  const { user } = await findOrCreateUser(db, email, input.name);
  const [updated] = await db
    .update(users)
    .set({ passwordHash, name: user.name ?? (input.name?.trim() || null) })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

/** The user whose password this is, or undefined; as slow for unknown addresses as for known ones. */
export async function verifyPassword(db: Database, email: string, password: string) {
  let user: Awaited<ReturnType<typeof findUserByEmail>>;
  try {
    user = await findUserByEmail(db, email);
  } catch {
    user = undefined;
  }
  // Compare against a dummy hash when there is no user, so timing does not tell which addresses exist.
  const hash = user?.passwordHash ?? "$2b$12$C6UzMDM.H6dfI/f/IKcEeO5rV7r1m6bS4VZ6b0Q0n3l1zI6m5p2cK";
  const matches = await bcrypt.compare(password, hash);
  return matches && user?.passwordHash ? user : undefined;
}
