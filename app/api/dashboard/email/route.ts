import { requestEmailChange } from "@/lib/accounts/user-account";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { emailChangeBody } from "@/lib/accounts/team-schemas";

// POST /api/dashboard/email – asks to change the signed-in user's address: a link to the new one confirms it, the old one is told
export const POST = withSession(
  { body: emailChangeBody, ownAccount: true, audit: { action: "user.email_change_requested", target: "user", id: "actor", changes: false } },
  async ({ ctx, user, body }) => json(await requestEmailChange(ctx.db, user, body), 202),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
