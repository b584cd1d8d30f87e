import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/hooks";
import { json } from "@/lib/api/responses";
import { createHook, listHooks } from "@/lib/boosts/hooks";

// GET /v1/boosts/{boostId}/hooks – the boost's deploy hooks, without their URLs
export const GET = withApiKey(operations.listBoostHooks, async ({ ctx, params, query }) => json(await listHooks(ctx, params.boostId, query)));

// POST /v1/boosts/{boostId}/hooks – a new deploy hook; its URL is shown once
export const POST = withApiKey(operations.createBoostHook, async ({ ctx, params, body }) => json(await createHook(ctx, params.boostId, body), 201));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
