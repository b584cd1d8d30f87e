import { keyParams, toApiKeyView } from "@/lib/auth/api-key-schemas";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// DELETE /api/dashboard/keys/{keyId} – revokes the key at once; it stays listed as revoked
export const DELETE = withSession({ params: keyParams, role: "admin", audit: { action: "key.revoked", target: "key", id: { param: "keyId" } } }, async ({ ctx, params }) =>
  json(toApiKeyView(await revokeApiKey(ctx.db, params.keyId, ctx.accountId))),
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
