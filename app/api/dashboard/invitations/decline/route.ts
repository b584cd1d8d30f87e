import { recordAuditEvent } from "@/lib/accounts/audit";
import { declineInvitation } from "@/lib/accounts/invitations";
import { clientAddress } from "@/lib/auth/client-address";
import { parseBody, readBodyText } from "@/lib/api/input";
import { answerFromClientBudget, otherMethods } from "@/lib/api/methods";
import { noContent } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { declineInvitationBody } from "@/lib/accounts/team-schemas";
import { getDb } from "@/lib/db";

// POST /api/dashboard/invitations/decline – declines the invitation of the link's token; no sign-in needed
export function POST(request: Request) {
  return answerFromClientBudget(request, async () => {
    requireJsonOrDashboard(request);
    const db = await getDb();
    const declined = await declineInvitation(db, parseBody(await readBodyText(request), declineInvitationBody).token);
    await recordAuditEvent(db, {
      accountId: declined.accountId,
      actor: { type: "user", label: declined.email },
      action: "invitation.declined",
      targetType: "invitation",
      targetId: declined.id,
      clientAddress: clientAddress(request.headers),
    });
    return noContent();
  });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
