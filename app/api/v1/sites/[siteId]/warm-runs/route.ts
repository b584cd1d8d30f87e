import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { listWarmRuns } from "@/lib/runs/warm-runs";

// GET /v1/sites/{siteId}/warm-runs – the site's on-demand warm runs, newest first
export const GET = withApiKey(operations.listWarmRuns, async ({ ctx, params, query }) => {
  const { data, total } = await listWarmRuns(ctx, params.siteId, query);
  return json({ data, total, ...query });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
