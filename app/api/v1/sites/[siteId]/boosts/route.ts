import { withApiKey } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/pagination";
import { siteParams } from "@/lib/api/params";
import { json, otherMethods } from "@/lib/api/responses";
import { createSiteBoostBody } from "@/lib/boosts/schemas";
import { createBoost, listBoosts, toBoost } from "@/lib/boosts/service";

// GET /v1/sites/{siteId}/boosts – the site's boosts
export const GET = withApiKey({ scope: "boosts:read", params: siteParams, query: paginationQuery }, async ({ ctx, params, query }) => {
  const { rows, total } = await listBoosts(ctx, params.siteId, query);
  return json({ data: rows.map(toBoost), total, ...query });
});

// POST /v1/sites/{siteId}/boosts – create a boost for this site
export const POST = withApiKey({ scope: "boosts:write", params: siteParams, body: createSiteBoostBody }, async ({ ctx, params, body }) =>
  json(toBoost(await createBoost(ctx, params.siteId, body)), 201),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
