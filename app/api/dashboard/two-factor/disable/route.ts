import { disableTwoFactor } from "@/lib/accounts/two-factor";
import { otherMethods } from "@/lib/api/methods";
import { noContent } from "@/lib/api/responses";
import { proverOf, withSession } from "@/lib/api/session-handler";
import { disableTwoFactorBody } from "@/lib/accounts/team-schemas";

// POST /api/dashboard/two-factor/disable – turns it off, proven by a current code or the password (not while an organization requires it)
export const POST = withSession({ body: disableTwoFactorBody, audit: { action: "user.two_factor_disabled", target: "user", id: "actor", changes: false } }, async ({ ctx, user, body, request }) => {
  await disableTwoFactor(ctx.db, proverOf(user, request), body);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
