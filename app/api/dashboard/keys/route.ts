import { toApiKeyView } from "@/lib/auth/api-key-schemas";
import { createApiKeyBody } from "@/lib/auth/create-key-body";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// GET /api/dashboard/keys – the account's keys (prefix, scopes, sites, creator, state, last use)
export const GET = withSession({}, async ({ ctx }) => json({ data: (await listApiKeys(ctx.db, ctx.accountId)).map(toApiKeyView) }));

// POST /api/dashboard/keys – a new key, shown once in this answer
export const POST = withSession({ body: createApiKeyBody, role: "admin", audit: { action: "key.created", target: "key", id: { answer: "api_key.id" } } }, async ({ ctx, user, body }) => {
  const { key, apiKey } = await createApiKey(ctx.db, {
    accountId: ctx.accountId,
    userId: user.userId,
    name: body.name,
    scopes: body.scopes,
    expiresAt: body.expires_at ? new Date(body.expires_at) : null,
    siteIds: body.site_ids ?? null,
  });
  return json({ key, api_key: toApiKeyView({ ...apiKey, createdBy: user.email }) }, 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
