import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/account";
import { json } from "@/lib/api/responses";
import { getUsage } from "@/lib/boosts/usage";

// GET /v1/usage – calls per day, the quota, and the month's projection
export const GET = withApiKey(operations.getUsage, async ({ ctx, query }) => json(await getUsage(ctx, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
