import { endSessions, listSessions } from "@/lib/accounts/sessions";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { endSessionsQuery } from "@/lib/accounts/team-schemas";

// GET /api/dashboard/sessions – the signed-in user's sessions: device, address, when opened and last seen, which is this one
export const GET = withSession({ ownAccount: true }, async ({ ctx, user }) => json({ data: await listSessions(ctx.db, user) }));

// DELETE /api/dashboard/sessions – "sign out everywhere": ends every session of the user, this one included; ?others=true keeps this one
export const DELETE = withSession({ query: endSessionsQuery, ownAccount: true, audit: { action: "user.sessions_ended", target: "user", id: "actor" } }, async ({ ctx, user, query }) => {
  await endSessions(ctx.db, user.userId, query.others === "true" ? user.sessionId : undefined);
  return noContent();
});

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
