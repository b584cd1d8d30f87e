import { resendInvitation, toInvitationView } from "@/lib/accounts/invitations";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { invitationParams } from "@/lib/accounts/team-schemas";

// POST /api/dashboard/invitations/{invitationId}/resend – a new link and 7 more days (5 sends at most, one per 10 minutes)
export const POST = withSession({ params: invitationParams, role: "owner", audit: { action: "invitation.resent", target: "invitation" } }, async ({ ctx, user, params }) =>
  json(toInvitationView(await resendInvitation(ctx, user, params.invitationId))),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
