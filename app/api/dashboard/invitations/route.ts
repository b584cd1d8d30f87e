import { inviteMember, listInvitations, toInvitationView } from "@/lib/accounts/invitations";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { inviteBody } from "@/lib/accounts/team-schemas";

// GET /api/dashboard/invitations – the organization's invitations, newest first, with their state
export const GET = withSession({}, async ({ ctx }) => json({ data: (await listInvitations(ctx)).map(toInvitationView) }));

// POST /api/dashboard/invitations – invites an address with a role (owners only); the e-mail holds the link
export const POST = withSession({ body: inviteBody, role: "owner", audit: { action: "member.invited", target: "invitation" } }, async ({ ctx, user, body }) =>
  json(toInvitationView(await inviteMember(ctx, user, body)), 201),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
