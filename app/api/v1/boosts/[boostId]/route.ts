import { withApiKey } from "@/lib/api/handler";
import { boostParams } from "@/lib/api/params";
import { json, noContent, otherMethods } from "@/lib/api/responses";
import { updateBoostBody } from "@/lib/boosts/schemas";
import { deleteBoost, getBoost, toBoost, updateBoost } from "@/lib/boosts/service";

// GET /v1/boosts/{boostId} – one boost
export const GET = withApiKey({ scope: "boosts:read", params: boostParams }, async ({ ctx, params }) =>
  json(toBoost(await getBoost(ctx, params.boostId))),
);

// PUT /v1/boosts/{boostId} – change the supplied fields (409 while a run is in progress)
export const PUT = withApiKey({ scope: "boosts:write", params: boostParams, body: updateBoostBody }, async ({ ctx, params, body }) =>
  json(toBoost(await updateBoost(ctx, params.boostId, body))),
);

// PATCH /v1/boosts/{boostId} – the same partial update as PUT
export const PATCH = PUT;

// DELETE /v1/boosts/{boostId} – delete a boost and its runs
export const DELETE = withApiKey({ scope: "boosts:write", params: boostParams }, async ({ ctx, params }) => {
  await deleteBoost(ctx, params.boostId);
  return noContent();
});

export const { POST } = otherMethods("GET", "PUT", "PATCH", "DELETE");
