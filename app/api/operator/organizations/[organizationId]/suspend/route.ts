import { suspendOrganization } from "@/lib/accounts/operator";
import { organizationParams } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { suspensionInputSchema } from "@/lib/plans/schemas";

// POST /api/operator/organizations/{organizationId}/suspend – its keys answer 403 account_suspended, its runs stop, its members read the reason;
// `block_new_organizations`: its owners and admins may not create another organization meanwhile
export const POST = withOperator({ params: organizationParams, body: suspensionInputSchema }, async ({ db, operator, params, body }) =>
  json(await suspendOrganization(db, params.organizationId, body, operator.email)),
);

export const { GET, PUT, PATCH, DELETE } = otherOperatorMethods("POST");
