import { enableTwoFactor } from "@/lib/accounts/two-factor";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { proverOf, withSession } from "@/lib/api/session-handler";
import { twoFactorCodeBody } from "@/lib/accounts/team-schemas";

// POST /api/dashboard/two-factor/enable – turns two-factor sign-in on with the app's first code; answers the recovery codes, shown once
export const POST = withSession(
  { body: twoFactorCodeBody, ownAccount: true, audit: { action: "user.two_factor_enabled", target: "user", id: "actor", changes: false } },
  async ({ ctx, user, body, request }) => json(await enableTwoFactor(ctx.db, proverOf(user, request), body.code)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
