import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { deleteBoost, getBoost, toBoost, updateBoost } from "@/lib/boosts/service";

// GET /v1/sites/{siteId}/boosts/{boostId} – one boost
export const GET = withApiKey(operations.getSiteBoost, async ({ ctx, params }) => json(toBoost(await getBoost(ctx, params.boostId, params.siteId))));

// PATCH /v1/sites/{siteId}/boosts/{boostId} – change the supplied fields (409 while a run is in progress)
export const PATCH = withApiKey(operations.updateSiteBoost, async ({ ctx, params, body }) => json(toBoost(await updateBoost(ctx, params.boostId, body, params.siteId))));

// DELETE /v1/sites/{siteId}/boosts/{boostId} – delete a boost and its runs
export const DELETE = withApiKey(operations.deleteSiteBoost, async ({ ctx, params }) => {
  await deleteBoost(ctx, params.boostId, params.siteId);
  return noContent();
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
