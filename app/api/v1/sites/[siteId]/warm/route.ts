import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { queueWarm, toWarmQueued } from "@/lib/runs/warm-runs";

// POST /v1/sites/{siteId}/warm – queue an on-demand warm of up to 5,000 URLs
export const POST = withApiKey(operations.warmSite, async ({ ctx, params, body }) => {
  return json(toWarmQueued(await queueWarm(ctx, params.siteId, body)), 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
