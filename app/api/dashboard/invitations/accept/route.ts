import { recordAuditEvent } from "@/lib/accounts/audit";
import { acceptInvitation } from "@/lib/accounts/invitations";
import { clientAddress } from "@/lib/auth/client-address";
import { signedInUser } from "@/lib/accounts/next-auth";
import { switchOrganization } from "@/lib/accounts/sessions";
import { parseBody, readBodyText } from "@/lib/api/input";
import { answerFromClientBudget, otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { acceptInvitationBody } from "@/lib/accounts/team-schemas";
import { getDb } from "@/lib/db";

// POST /api/dashboard/invitations/accept – joins the organization of the link's token: signed in as the invited address, or with a password for a new user
export function POST(request: Request) {
  return answerFromClientBudget(request, async () => {
    requireJsonOrDashboard(request);
    const body = parseBody(await readBodyText(request), acceptInvitationBody);
    const db = await getDb();
    const user = await signedInUser();
    const accepted = await acceptInvitation(db, body.token, { signedIn: user, password: body.password, name: body.name });
    // The session that accepted works in the organization it joined.
    if (user) await switchOrganization(db, user, accepted.accountId);
    await recordAuditEvent(db, {
      accountId: accepted.accountId,
      actor: { type: "user", label: accepted.email, userId: accepted.userId },
      action: "member.joined",
      targetType: "user",
      targetId: accepted.userId,
      clientAddress: clientAddress(request.headers),
    });
    return json({ organization_id: accepted.accountId, email: accepted.email, role: accepted.role, signed_in: Boolean(user) }, 200);
  });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
