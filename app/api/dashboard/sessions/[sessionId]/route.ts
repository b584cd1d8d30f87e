import { revokeSession } from "@/lib/accounts/sessions";
import { otherMethods } from "@/lib/api/methods";
import { noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { sessionParams } from "@/lib/accounts/team-schemas";

// DELETE /api/dashboard/sessions/{sessionId} – ends one of the user's sessions at once, on every server
export const DELETE = withSession({ params: sessionParams, ownAccount: true, audit: { action: "session.revoked", target: "session" } }, async ({ ctx, user, params }) => {
  await revokeSession(ctx.db, user.userId, params.sessionId);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
