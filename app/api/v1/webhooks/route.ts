import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/webhooks";
import { json } from "@/lib/api/responses";
import { createWebhook, listWebhooks } from "@/lib/webhooks/service";

// GET /v1/webhooks – the account's webhooks
export const GET = withApiKey(operations.listWebhooks, async ({ ctx, query }) => json(await listWebhooks(ctx, query)));

// POST /v1/webhooks – a new webhook, with its signing secret (shown once)
export const POST = withApiKey(operations.createWebhook, async ({ ctx, body }) => json(await createWebhook(ctx, body), 201));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
