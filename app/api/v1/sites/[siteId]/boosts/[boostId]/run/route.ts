import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { triggerBoostRun } from "@/lib/boosts/trigger";
import { unvalidatedLimits } from "@/lib/sites/unvalidated-limits";

// POST /v1/sites/{siteId}/boosts/{boostId}/run – queue a run now (409 while one is pending or running)
export const POST = withApiKey(operations.runSiteBoost, async ({ ctx, params }) => {
  const run = await triggerBoostRun(ctx, params.boostId, params.siteId);
  return json({ run_id: run.id, status: "pending", unvalidated_limits: unvalidatedLimits(run.siteValidated) }, 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
