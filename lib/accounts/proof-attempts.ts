import { signInBudgets } from "@/lib/auth/attempts";
import { countFailure, forgive, secondsUntilAllowed } from "@/lib/auth/rate-limit";
import { publicBaseUrl } from "@/lib/config/base-url";
import { TooManyRequestsError } from "@/lib/core/errors";
import type { Database } from "@/lib/db";
import { sendNow } from "@/lib/email/send";

/** Who gives a proof: the user (its address is the sign-in budget's subject) and the client it comes from. */
export type Prover = { userId: number; email: string; accountId: number | null; client: string };

/**
 * What a wrong code was given for, as the notice names it. Sign-in and every route of the signed-in
 * user that takes a code share the sign-in budgets (lib/auth/attempts.ts): a stolen session may not
 * search the code space any faster than a stolen password.
 */
export type ProofAction = "signing in" | "new recovery codes" | "turning two-factor sign-in off" | "turning two-factor sign-in on";

/** Seconds until the user and the client may try again (0 while both budgets last). */
export async function secondsUntilProofAllowed(db: Database, email: string, client: string): Promise<number> {
  const { byEmail, byClient } = signInBudgets;
  return Math.max(await secondsUntilAllowed(db, byEmail, email), await secondsUntilAllowed(db, byClient, client));
}

/** Counts a wrong proof against the user and the client; the one that locks the user's codes tells the user by e-mail. */
export async function countWrongProof(db: Database, prover: Prover, action: ProofAction): Promise<void> {
  const { byEmail, byClient } = signInBudgets;
  const wasLocked = (await secondsUntilAllowed(db, byEmail, prover.email)) > 0;
  await countFailure(db, byEmail, prover.email);
  await countFailure(db, byClient, prover.client);
  if (wasLocked || !(await secondsUntilAllowed(db, byEmail, prover.email))) return;
  const minutes = Math.ceil(byEmail.seconds / 60);
  await sendNow(db, {
    accountId: prover.accountId,
    // One notice per lock: the window it started in names it.
    dedupeKey: `two-factor-locked:${prover.userId}:${Math.floor(Date.now() / (byEmail.seconds * 1000))}`,
    to: prover.email,
    template: "two-factor-locked",
    props: { host: new URL(publicBaseUrl()).host, action, failures: byEmail.points, minutes, accountUrl: `${publicBaseUrl()}/account` },
  });
}

/**
 * Runs a check of a code (or a password given as proof) within the sign-in budgets: refused with a
 * 429 while locked, counted when wrong, the user's count forgiven when right. True when it passed.
 */
export async function proveWithinLimits(db: Database, prover: Prover, action: ProofAction, check: () => Promise<boolean>): Promise<boolean> {
  const wait = await secondsUntilProofAllowed(db, prover.email, prover.client);
  if (wait)
    throw new TooManyRequestsError(
      `Too many wrong codes or passwords for your user: try again in ${Math.ceil(wait / 60)} minutes. If they were not yours, change your password and sign out of your other sessions.`,
      wait,
    );
  if (await check()) {
    await forgive(db, signInBudgets.byEmail, prover.email);
    return true;
  }
  await countWrongProof(db, prover, action);
  return false;
}
