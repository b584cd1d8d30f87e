import { revokeInvitation, toInvitationView } from "@/lib/accounts/invitations";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { invitationParams } from "@/lib/accounts/team-schemas";

// DELETE /api/dashboard/invitations/{invitationId} – revokes a pending invitation: its link stops working
export const DELETE = withSession({ params: invitationParams, role: "owner", audit: { action: "invitation.revoked", target: "invitation" } }, async ({ ctx, params }) =>
  json(toInvitationView(await revokeInvitation(ctx, params.invitationId))),
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
