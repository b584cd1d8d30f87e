import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/boosts";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { estimateBoost } from "@/lib/boosts/estimate";

// GET /v1/boosts/{boostId}/estimate – what a run would do now (URLs, calls, calls per region, quota left), without doing it
export const GET = withApiKey(operations.estimateBoost, async ({ ctx, params }) => json(await estimateBoost(ctx, params.boostId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
