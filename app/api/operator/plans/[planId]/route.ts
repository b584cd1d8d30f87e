import { deletePlan, updatePlan } from "@/lib/accounts/operator";
import { planParams } from "@/lib/accounts/operator-schemas";
import { json, noContent } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { planUpdateSchema } from "@/lib/plans/schemas";

// PATCH /api/operator/plans/{planId} – changes what the body supplies; the organizations on the plan have the new limits at once
export const PATCH = withOperator({ params: planParams, body: planUpdateSchema }, async ({ db, params, body }) => json(await updatePlan(db, params.planId, body)));

// DELETE /api/operator/plans/{planId} – only a plan no organization is on (409 otherwise)
export const DELETE = withOperator({ params: planParams }, async ({ db, params }) => {
  await deletePlan(db, params.planId);
  return noContent();
});

export const { GET, POST, PUT } = otherOperatorMethods("PATCH", "DELETE");
