import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { toRunQueued, triggerBoostRun } from "@/lib/boosts/trigger";

// POST /v1/sites/{siteId}/boosts/{boostId}/run – queue a run now (409 while one is pending or running)
export const POST = withApiKey(operations.runSiteBoost, async ({ ctx, params }) => json(toRunQueued(await triggerBoostRun(ctx, params.boostId, params.siteId)), 202));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
