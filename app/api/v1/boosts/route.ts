import { withApiKey } from "@/lib/api/handler";
import { json, otherMethods } from "@/lib/api/responses";
import { createBoostBody } from "@/lib/boosts/schemas";
import { createBoost, toBoost } from "@/lib/boosts/service";

// POST /v1/boosts – create a boost (warming campaign)
export const POST = withApiKey({ scope: "boosts:write", body: createBoostBody }, async ({ ctx, body }) => {
  const { site_id: siteId, ...input } = body;
  return json(toBoost(await createBoost(ctx, siteId, input)), 201);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
