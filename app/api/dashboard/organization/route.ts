import { deleteOrganization, organizationsOf, toOrganizationView, updateOrganization } from "@/lib/accounts/organizations";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { deleteOrganizationBody, organizationSettingsBody } from "@/lib/accounts/team-schemas";
import { NotFoundError } from "@/lib/core/errors";

async function currentOrganization(db: Parameters<typeof organizationsOf>[0], user: { userId: number; accountId: number }) {
  const organization = (await organizationsOf(db, user.userId)).find((o) => o.id === user.accountId);
  if (!organization) throw new NotFoundError("Organization not found.");
  return toOrganizationView(organization, user.accountId);
}

// GET /api/dashboard/organization – the organization this session works in, and the user's role in it
export const GET = withSession({ ownAccount: true }, async ({ ctx, user }) => json(await currentOrganization(ctx.db, user)));

// PATCH /api/dashboard/organization – renames it, or requires two-factor sign-in of every member (owners only)
export const PATCH = withSession(
  { body: organizationSettingsBody, role: "owner", audit: { action: "organization.updated", target: "organization", id: { answer: "id" } } },
  async ({ ctx, user, body }) => {
    await updateOrganization(ctx.db, { accountId: ctx.accountId, userId: user.userId }, body);
    return json(await currentOrganization(ctx.db, user));
  },
);

// DELETE /api/dashboard/organization – deletes it with everything it holds (owners only; the name typed again)
export const DELETE = withSession({ body: deleteOrganizationBody, role: "owner" }, async ({ ctx, body }) => {
  await deleteOrganization(ctx.db, ctx.accountId, body.confirm_name);
  return noContent();
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
