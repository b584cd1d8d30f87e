import { setOrganizationPlan } from "@/lib/accounts/operator";
import { organizationParams, organizationPlanBody } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// PUT /api/operator/organizations/{organizationId}/plan – moves the organization to a plan (null: the service's configuration)
export const PUT = withOperator({ params: organizationParams, body: organizationPlanBody }, async ({ db, operator, params, body }) =>
  json(await setOrganizationPlan(db, params.organizationId, body.plan_id, operator.email)),
);

export const { GET, POST, PATCH, DELETE } = otherOperatorMethods("PUT");
