import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/webhooks";
import { json, noContent } from "@/lib/api/responses";
import { deleteWebhook, getWebhookRow, toWebhook, updateWebhook } from "@/lib/webhooks/service";

// GET /v1/webhooks/{webhookId}
export const GET = withApiKey(operations.getWebhook, async ({ ctx, params }) => json(toWebhook(await getWebhookRow(ctx, params.webhookId))));

// PATCH /v1/webhooks/{webhookId} – only the supplied fields; `enabled: true` enables it again
export const PATCH = withApiKey(operations.updateWebhook, async ({ ctx, params, body }) => json(await updateWebhook(ctx, params.webhookId, body)));

// DELETE /v1/webhooks/{webhookId}
export const DELETE = withApiKey(operations.deleteWebhook, async ({ ctx, params }) => {
  await deleteWebhook(ctx, params.webhookId);
  return noContent();
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
