import { renewRecoveryCodes } from "@/lib/accounts/two-factor";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { proverOf, withSession } from "@/lib/api/session-handler";
import { twoFactorCodeBody } from "@/lib/accounts/team-schemas";

// POST /api/dashboard/two-factor/recovery-codes – ten new recovery codes, shown once; the old ones stop working
export const POST = withSession({ body: twoFactorCodeBody, audit: { action: "user.recovery_codes_renewed", target: "user", id: "actor", changes: false } }, async ({ ctx, user, body, request }) =>
  json(await renewRecoveryCodes(ctx.db, proverOf(user, request), body.code)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
