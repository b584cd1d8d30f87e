import { withApiKey } from "@/lib/api/handler";
import { siteBoostParams } from "@/lib/api/params";
import { json, noContent, otherMethods } from "@/lib/api/responses";
import { updateBoostBody } from "@/lib/boosts/schemas";
import { deleteBoost, getBoost, toBoost, updateBoost } from "@/lib/boosts/service";

// GET /v1/sites/{siteId}/boosts/{boostId} – one boost
export const GET = withApiKey({ scope: "boosts:read", params: siteBoostParams }, async ({ ctx, params }) =>
  json(toBoost(await getBoost(ctx, params.boostId, params.siteId))),
);

// PATCH /v1/sites/{siteId}/boosts/{boostId} – change the supplied fields (409 while a run is in progress)
export const PATCH = withApiKey({ scope: "boosts:write", params: siteBoostParams, body: updateBoostBody }, async ({ ctx, params, body }) =>
  json(toBoost(await updateBoost(ctx, params.boostId, body, params.siteId))),
);

// DELETE /v1/sites/{siteId}/boosts/{boostId} – delete a boost and its runs
export const DELETE = withApiKey({ scope: "boosts:write", params: siteBoostParams }, async ({ ctx, params }) => {
  await deleteBoost(ctx, params.boostId, params.siteId);
  return noContent();
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
