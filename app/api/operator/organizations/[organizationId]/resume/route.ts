import { resumeOrganization } from "@/lib/accounts/operator";
import { organizationParams } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// POST /api/operator/organizations/{organizationId}/resume – lifts the suspension
export const POST = withOperator({ params: organizationParams }, async ({ db, operator, params }) => json(await resumeOrganization(db, params.organizationId, operator.email)));

export const { GET, PUT, PATCH, DELETE } = otherOperatorMethods("POST");
