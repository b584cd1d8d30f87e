import { createKeyForUser, keysOfUser } from "@/lib/accounts/operator";
import { keysQuery, operatorKeyBody } from "@/lib/accounts/operator-schemas";
import { toApiKeyView } from "@/lib/auth/api-key-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// GET /api/operator/keys?email= – the keys of the organization the user works in
export const GET = withOperator({ query: keysQuery }, async ({ db, query }) => {
  const { keys, ...owner } = await keysOfUser(db, query.email);
  return json({ ...owner, data: keys.map(toApiKeyView) });
});

// POST /api/operator/keys – a key for the user of `email` (a new address gets an organization of its own), shown once in this answer
export const POST = withOperator({ body: operatorKeyBody }, async ({ db, body, operator }) => {
  const { key, apiKey, organization_id } = await createKeyForUser(
    db,
    body.email,
    {
      name: body.name ?? "Operator key",
      scopes: body.scopes,
      expiresAt: body.expires_at ? new Date(body.expires_at) : null,
      siteIds: body.site_ids ?? null,
    },
    operator.email,
  );
  return json({ key, organization_id, api_key: toApiKeyView(apiKey) }, 201);
});

export const { PUT, PATCH, DELETE } = otherOperatorMethods("GET", "POST");
