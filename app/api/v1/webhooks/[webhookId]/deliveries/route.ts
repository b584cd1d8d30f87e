import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/webhooks";
import { json } from "@/lib/api/responses";
import { listDeliveries } from "@/lib/webhooks/service";

// GET /v1/webhooks/{webhookId}/deliveries – delivery attempts, newest first
export const GET = withApiKey(operations.listWebhookDeliveries, async ({ ctx, params, query }) => json(await listDeliveries(ctx, params.webhookId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
