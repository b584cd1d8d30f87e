import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { deleteBoost, getBoost, toBoost, updateBoost } from "@/lib/boosts/service";

// GET /v1/boosts/{boostId} – one boost
export const GET = withApiKey(operations.getBoost, async ({ ctx, params }) => json(toBoost(await getBoost(ctx, params.boostId))));

// PUT /v1/boosts/{boostId} – change the supplied fields (409 while a run is in progress)
export const PUT = withApiKey(operations.putBoost, async ({ ctx, params, body }) => json(toBoost(await updateBoost(ctx, params.boostId, body))));

// PATCH /v1/boosts/{boostId} – the same partial update as PUT
export const PATCH = withApiKey(operations.updateBoost, async ({ ctx, params, body }) => json(toBoost(await updateBoost(ctx, params.boostId, body))));

// DELETE /v1/boosts/{boostId} – delete a boost and its runs
export const DELETE = withApiKey(operations.deleteBoost, async ({ ctx, params }) => {
  await deleteBoost(ctx, params.boostId);
  return noContent();
});

export const { POST } = otherMethods("GET", "PUT", "PATCH", "DELETE");
