import { organizationDetail } from "@/lib/accounts/operator";
import { organizationParams } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// GET /api/operator/organizations/{organizationId} – one organization with its members
export const GET = withOperator({ params: organizationParams }, async ({ db, params }) => json(await organizationDetail(db, params.organizationId)));

export const { POST, PUT, PATCH, DELETE } = otherOperatorMethods("GET");
