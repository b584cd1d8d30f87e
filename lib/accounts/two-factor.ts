import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import { accounts, memberships, users } from "@/drizzle/schema";
import { hashToken } from "@/lib/auth/token-hash";
import { ConflictError, InvalidError } from "@/lib/core/errors";
import type { Database } from "@/lib/db";
import { decryptSecret, encryptSecret, NO_SECRETS_KEY, secretsKeyConfigured } from "@/lib/secrets";
import { verifyPassword } from "./passwords";
import { type Prover, proveWithinLimits } from "./proof-attempts";

const PURPOSE = "totp";
const RECOVERY_CODES = 10;
/** A code of the step before or after the current one still counts: clocks drift. */
const WINDOW = 1;

/** Recovery codes are typed with or without their dash and in any case. */
const hashCode = (code: string) => hashToken(code.replace(/[\s-]/g, "").toLowerCase());

function totpOf(secretBase32: string, email: string): TOTP {
  return new TOTP({ issuer: "Preheat", label: email, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

type UserRow = typeof users.$inferSelect;

async function userOf(db: Database, userId: number): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new InvalidError("This user does not exist any more.");
  return user;
}

/**
 * Starts setting up two-factor sign-in: a new secret, kept sealed until the first code proves the
 * authenticator app has it. What the app needs: the otpauth:// URI, as a QR code and as text.
 */
export async function beginTwoFactor(db: Database, userId: number): Promise<{ secret: string; uri: string; qr_svg: string }> {
  if (!secretsKeyConfigured()) throw new InvalidError(`Two-factor sign-in ${NO_SECRETS_KEY}.`);
  const user = await userOf(db, userId);
  if (user.totpEnabledAt) throw new ConflictError("Two-factor sign-in is on already: turn it off first to use another authenticator.");
  // Sign-in links stop working with two-factor sign-in on: without a password, nothing would sign in.
  if (!user.passwordHash) throw new ConflictError("Set a password first (above): with two-factor sign-in on, you sign in with the password and a code, and sign-in links stop working.");
  const secret = new Secret({ size: 20 }).base32;
  await db
    .update(users)
    .set({ totpSecret: encryptSecret(secret, PURPOSE) })
    .where(eq(users.id, userId));
  const uri = totpOf(secret, user.email).toString();
  return { secret, uri, qr_svg: renderSVG(uri) };
}

/** The 30-second step a code belongs to, or undefined when it is wrong or was used already. */
function acceptedStep(user: UserRow, code: string): number | undefined {
  if (!user.totpSecret || !/^\d{6}$/.test(code.replace(/\s/g, ""))) return undefined;
  const totp = totpOf(decryptSecret(user.totpSecret, PURPOSE), user.email);
  const delta = totp.validate({ token: code.replace(/\s/g, ""), window: WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(Date.now() / 30_000) + delta;
  return user.totpLastStep !== null && step <= user.totpLastStep ? undefined : step;
}

function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomBytes(5).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashCode) };
}

const WRONG_CODE = "The code is not right: type the 6 digits your app shows now.";

/** The step of an app's code checked within the sign-in budgets (lib/accounts/proof-attempts.ts); a wrong one is a 422. */
async function appCodeWithinLimits(db: Database, prover: Prover, action: Parameters<typeof proveWithinLimits>[2], user: UserRow, code: string): Promise<number> {
  let step: number | undefined;
  const passed = await proveWithinLimits(db, prover, action, async () => {
    step = acceptedStep(user, code);
    return step !== undefined;
  });
  if (!passed || step === undefined) throw new InvalidError(WRONG_CODE, [{ field: "code", message: "Not right." }]);
  return step;
}

/** Turns two-factor sign-in on with the first code of the app; answers the recovery codes, shown this once. */
export async function enableTwoFactor(db: Database, prover: Prover, code: string): Promise<{ recovery_codes: string[] }> {
  const user = await userOf(db, prover.userId);
  if (user.totpEnabledAt) throw new ConflictError("Two-factor sign-in is on already.");
  if (!user.totpSecret) throw new InvalidError("Start the set-up first: it gives the code to scan.");
  const step = await appCodeWithinLimits(db, prover, "turning two-factor sign-in on", user, code);
  const { codes, hashes } = newRecoveryCodes();
  await db.update(users).set({ totpEnabledAt: new Date(), totpLastStep: step, recoveryCodeHashes: hashes }).where(eq(users.id, prover.userId));
  return { recovery_codes: codes };
}

/**
 * Checks a second factor at sign-in: a code of the app (each accepted once) or a recovery code (each
 * spent by its use). True when it passes.
 */
export async function checkSecondFactor(db: Database, userId: number, code: string): Promise<boolean> {
  const user = await userOf(db, userId);
  if (!user.totpEnabledAt) return true;
  const step = acceptedStep(user, code);
  if (step !== undefined) {
    await db.update(users).set({ totpLastStep: step }).where(eq(users.id, userId));
    return true;
  }
  const hash = hashCode(code);
  const remaining = user.recoveryCodeHashes ?? [];
  if (!remaining.includes(hash)) return false;
  await db
    .update(users)
    .set({ recoveryCodeHashes: remaining.filter((h) => h !== hash) })
    .where(eq(users.id, userId));
  return true;
}

/** Whether any of the user's organizations asks every member for a second factor. */
async function requiredByAnOrganization(db: Database, userId: number): Promise<string | undefined> {
  const [requiring] = await db
    .select({ name: accounts.name })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, userId), eq(accounts.requireTwoFactor, true)))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  return requiring?.name;
}

/** Turns two-factor sign-in off, proven by a current code or the password; not while an organization of the user requires it. */
export async function disableTwoFactor(db: Database, prover: Prover, proof: { code?: string; password?: string }): Promise<void> {
  const userId = prover.userId;
  const user = await userOf(db, userId);
  if (!user.totpEnabledAt) return;
  const requiredBy = await requiredByAnOrganization(db, userId);
  if (requiredBy) throw new ConflictError(`${requiredBy} requires two-factor sign-in of its members: it stays on while you belong to it.`);
  const proven = await proveWithinLimits(
    db,
    prover,
    "turning two-factor sign-in off",
    async () => (proof.code !== undefined && (await checkSecondFactor(db, userId, proof.code))) || (proof.password !== undefined && Boolean(await verifyPassword(db, user.email, proof.password))),
  );
  if (!proven) throw new InvalidError("Give a current code of your app (or a recovery code), or your password, to turn two-factor sign-in off.", [{ field: "code", message: "Not right." }]);
  await db.update(users).set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, recoveryCodeHashes: null }).where(eq(users.id, userId));
}

/** New recovery codes (the old ones stop working), proven by a current code. */
export async function renewRecoveryCodes(db: Database, prover: Prover, code: string): Promise<{ recovery_codes: string[] }> {
  const user = await userOf(db, prover.userId);
  if (!user.totpEnabledAt) throw new ConflictError("Two-factor sign-in is off: there are no recovery codes.");
  const step = await appCodeWithinLimits(db, prover, "new recovery codes", user, code);
  const { codes, hashes } = newRecoveryCodes();
  await db.update(users).set({ totpLastStep: step, recoveryCodeHashes: hashes }).where(eq(users.id, prover.userId));
  return { recovery_codes: codes };
}

/** Two-factor state for the Account page. */
export async function twoFactorState(db: Database, userId: number) {
  const user = await userOf(db, userId);
  return {
    enabled: Boolean(user.totpEnabledAt),
    enabled_at: user.totpEnabledAt?.toISOString() ?? null,
    recovery_codes_left: user.recoveryCodeHashes?.length ?? 0,
    required_by: (await requiredByAnOrganization(db, userId)) ?? null,
    available: secretsKeyConfigured(),
  };
}
