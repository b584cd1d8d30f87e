import { keyParams, toApiKeyView } from "@/lib/auth/api-key-schemas";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// DELETE /api/operator/keys/{keyId} – revokes any organization's key at once
export const DELETE = withOperator({ params: keyParams }, async ({ db, params }) => json(toApiKeyView(await revokeApiKey(db, params.keyId))));

export const { GET, POST, PUT, PATCH } = otherOperatorMethods("DELETE");
