import { withApiKey } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/pagination";
import { siteParams } from "@/lib/api/params";
import { json, otherMethods } from "@/lib/api/responses";
import { listWarmRuns } from "@/lib/runs/warm-runs";

// GET /v1/sites/{siteId}/warm-runs – the site's on-demand warm runs, newest first
export const GET = withApiKey({ scope: "boosts:read", params: siteParams, query: paginationQuery }, async ({ ctx, params, query }) => {
  const { data, total } = await listWarmRuns(ctx, params.siteId, query);
  return json({ data, total, ...query });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
