import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/webhooks";
import { json } from "@/lib/api/responses";
import { testWebhook } from "@/lib/webhooks/service";

// POST /v1/webhooks/{webhookId}/test – one signed test delivery now; the answer is that delivery
export const POST = withApiKey(operations.testWebhook, async ({ ctx, params }) => json(await testWebhook(ctx, params.webhookId)));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
