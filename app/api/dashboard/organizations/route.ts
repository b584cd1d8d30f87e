import { createOrganization, organizationsOf, toOrganizationView } from "@/lib/accounts/organizations";
import { recordAuditEvent } from "@/lib/accounts/audit";
import { switchOrganization } from "@/lib/accounts/sessions";
import { clientAddress } from "@/lib/auth/client-address";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { organizationBody } from "@/lib/accounts/team-schemas";

// GET /api/dashboard/organizations – the organizations the signed-in user belongs to, with the role in each and the current one
export const GET = withSession({ ownAccount: true }, async ({ ctx, user }) => json({ data: (await organizationsOf(ctx.db, user.userId)).map((o) => toOrganizationView(o, user.accountId)) }));

// POST /api/dashboard/organizations – a new organization the user owns; this session switches to it
export const POST = withSession({ body: organizationBody, ownAccount: true }, async ({ ctx, user, body, request }) => {
  const id = await ctx.db.transaction((tx) => createOrganization(tx, { name: body.name, ownerUserId: user.userId }));
  await switchOrganization(ctx.db, user, id);
  // Recorded in the new organization's log, where it belongs (withSession's would go to the one the session was in).
  await recordAuditEvent(ctx.db, {
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
