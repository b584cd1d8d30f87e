import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { createBoost, toBoost } from "@/lib/boosts/service";

// POST /v1/boosts – create a boost (warming campaign)
export const POST = withApiKey(operations.createBoost, async ({ ctx, body }) => {
  const { site_id: siteId, ...input } = body;
  return json(toBoost(await createBoost(ctx, siteId, input)), 201);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
