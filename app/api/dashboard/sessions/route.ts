import { endSessions } from "@/lib/accounts/sessions";
import { otherMethods } from "@/lib/api/methods";
import { noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// DELETE /api/dashboard/sessions – "sign out everywhere": ends every session of the signed-in user, this one included
export const DELETE = withSession({ audit: { action: "user.sessions_ended", target: "user", id: "actor" } }, async ({ ctx, user }) => {
  await endSessions(ctx.db, user.userId);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
