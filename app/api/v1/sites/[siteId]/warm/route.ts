import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { queueWarm } from "@/lib/runs/warm-runs";

// POST /v1/sites/{siteId}/warm – queue an on-demand warm of up to 5,000 URLs
export const POST = withApiKey(operations.warmSite, async ({ ctx, params, body }) => {
  const { run, urlCount } = await queueWarm(ctx, params.siteId, body);
  return json({ run_id: run.id, url_count: urlCount, status: "pending" }, 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
