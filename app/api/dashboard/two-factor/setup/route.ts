import { beginTwoFactor } from "@/lib/accounts/two-factor";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// POST /api/dashboard/two-factor/setup – a new secret for the authenticator app (otpauth URI, QR code); on once a first code proves it
export const POST = withSession({ ownAccount: true }, async ({ ctx, user }) => json(await beginTwoFactor(ctx.db, user.userId)));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
