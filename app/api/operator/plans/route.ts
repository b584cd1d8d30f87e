import { createPlan, listPlans } from "@/lib/accounts/operator";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { planInputSchema } from "@/lib/plans/schemas";

// GET /api/operator/plans – every plan with its limits and the number of organizations on it
export const GET = withOperator({}, async ({ db }) => json({ data: await listPlans(db) }));

// POST /api/operator/plans – a new plan; each limit left out or null is the service's configuration
export const POST = withOperator({ body: planInputSchema }, async ({ db, body }) => json(await createPlan(db, body), 201));

export const { PUT, PATCH, DELETE } = otherOperatorMethods("GET", "POST");
