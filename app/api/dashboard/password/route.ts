import { z } from "zod";
import { changePassword, hasPassword } from "@/lib/accounts/passwords";
import { otherMethods } from "@/lib/api/methods";
import { errorResponse, json, noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { countFailure, secondsUntilAllowed } from "@/lib/auth/rate-limit";
import { signInBudgets } from "@/lib/auth/attempts";
import { InvalidError } from "@/lib/core/errors";

const passwordBody = z.object({
  current_password: z.string().max(1000).optional(),
  new_password: z.string().min(1, "Choose a password."),
});

// GET /api/dashboard/password – whether the signed-in user has a password
export const GET = withSession({ ownAccount: true }, async ({ ctx, user }) => json({ has_password: await hasPassword(ctx.db, user.userId) }));

// PUT /api/dashboard/password – sets (or, with the current one, changes) the signed-in user's password; every other session ends
export const PUT = withSession({ body: passwordBody, ownAccount: true, audit: { action: "user.password_changed", target: "user", id: "actor", changes: false } }, async ({ ctx, user, body }) => {
  // A stolen session must not become a way to guess the current password: failures count as sign-in failures.
  const { byEmail } = signInBudgets;
  const wait = await secondsUntilAllowed(ctx.db, byEmail, user.email);
  if (wait) return errorResponse(429, "rate_limited", `Too many wrong passwords: try again in ${Math.ceil(wait / 60)} minutes.`, undefined, { "retry-after": String(wait) });
  try {
    await changePassword(ctx.db, user, body);
  } catch (error) {
    if (error instanceof InvalidError && (error.details as { field: string }[] | undefined)?.[0]?.field === "current_password") await countFailure(ctx.db, byEmail, user.email);
    throw error;
  }
  return noContent();
});

export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
