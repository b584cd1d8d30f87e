import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/changes";
import { json } from "@/lib/api/responses";
import { listReceiverDeliveries } from "@/lib/changes/receivers";

// GET /v1/sites/{siteId}/change-receivers/{receiverId}/deliveries – the last 50, newest first, with why
export const GET = withApiKey(operations.listChangeDeliveries, async ({ ctx, params }) => json(await listReceiverDeliveries(ctx, params.siteId, params.receiverId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
