import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/boosts";
import { json } from "@/lib/api/responses";
import { keepWarmState } from "@/lib/boosts/keep-warm-state";

// GET /v1/boosts/{boostId}/keep-warm – pages kept warm, the next re-warm, the month's calls, and the pages not kept warm with why
export const GET = withApiKey(operations.getBoostKeepWarm, async ({ ctx, params, query }) => json(await keepWarmState(ctx, params.boostId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
