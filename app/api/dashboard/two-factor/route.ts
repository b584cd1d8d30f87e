import { twoFactorState } from "@/lib/accounts/two-factor";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// GET /api/dashboard/two-factor – whether the signed-in user's two-factor sign-in is on, the recovery codes left, and which organization requires it
export const GET = withSession({ ownAccount: true }, async ({ ctx, user }) => json(await twoFactorState(ctx.db, user.userId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
