import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { createBoost, listBoosts, toBoost } from "@/lib/boosts/service";

// GET /v1/sites/{siteId}/boosts – the site's boosts
export const GET = withApiKey(operations.listSiteBoosts, async ({ ctx, params, query }) => {
  const { rows, total } = await listBoosts(ctx, params.siteId, query);
  return json({ data: rows.map(toBoost), total, ...query });
});

// POST /v1/sites/{siteId}/boosts – create a boost for this site
export const POST = withApiKey(operations.createSiteBoost, async ({ ctx, params, body }) => json(toBoost(await createBoost(ctx, params.siteId, body)), 201));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
