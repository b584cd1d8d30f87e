import { keyParams, toApiKeyView } from "@/lib/auth/api-key-schemas";
import { revokeKeyAsOperator } from "@/lib/accounts/operator";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// DELETE /api/operator/keys/{keyId} – revokes any organization's key at once
export const DELETE = withOperator({ params: keyParams }, async ({ db, params, operator }) => json(toApiKeyView(await revokeKeyAsOperator(db, params.keyId, operator.email))));

export const { GET, POST, PUT, PATCH } = otherOperatorMethods("DELETE");
