import { createOrganization, organizationsOf, toOrganizationView } from "@/lib/accounts/organizations";
import { recordAuditEvent } from "@/lib/accounts/audit";
import { switchOrganization } from "@/lib/accounts/sessions";
import { clientAddress } from "@/lib/auth/client-address";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSignedIn } from "@/lib/api/session-handler";
import { organizationBody } from "@/lib/accounts/team-schemas";

// GET /api/dashboard/organizations – the organizations the signed-in user belongs to (none, maybe), with the role in each and the current one
export const GET = withSignedIn({}, async ({ db, user, accountId }) => json({ data: (await organizationsOf(db, user.userId)).map((o) => toOrganizationView(o, accountId)) }));

// POST /api/dashboard/organizations – a new organization the user owns, named by them; this session switches to it.
// Open to a user in no organization too: it is their way back in.
export const POST = withSignedIn({ body: organizationBody }, async ({ db, user, body, request }) => {
  const id = await db.transaction((tx) => createOrganization(tx, { name: body.name, ownerUserId: user.userId }));
  await switchOrganization(db, user, id);
  // Recorded in the new organization's log, where it belongs.
  await recordAuditEvent(db, {
    accountId: id,
    actor: { type: "user", label: user.email, userId: user.userId },
    action: "organization.created",
    targetType: "organization",
    targetId: id,
    clientAddress: clientAddress(request.headers),
  });
  return json(toOrganizationView({ id, name: body.name, role: "owner" }, id), 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
