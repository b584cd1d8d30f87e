import { switchOrganization } from "@/lib/accounts/sessions";
import { otherMethods } from "@/lib/api/methods";
import { noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { organizationParams } from "@/lib/accounts/team-schemas";

// POST /api/dashboard/organizations/{organizationId}/switch – this session (and the next ones) work in another organization of the user
export const POST = withSession({ params: organizationParams, ownAccount: true }, async ({ ctx, user, params }) => {
  await switchOrganization(ctx.db, user, params.organizationId);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
