import { paginationQuery, pageOf } from "@/lib/api/pagination";
import { webhookParams } from "@/lib/api/params";
import { createdWebhookSchema, createWebhookBody, updateWebhookBody, webhookDeliverySchema, webhookSchema } from "@/lib/webhooks/schemas";
import { defineOperation } from "../operation";

export const createWebhook = defineOperation({
  operationId: "createWebhook",
  method: "post",
  path: "/v1/webhooks",
  tag: "Webhooks",
  summary: "Create a webhook (its signing secret is shown once)",
  description:
    "Each event the webhook subscribes to is POSTed to `url` once (deduplicated per event), retried with exponential back-off for about a day while the receiver does not answer 2xx (the first retry after `PREHEAT_WEBHOOK_RETRY_BASE_SECONDS`, 60 s by default). After `PREHEAT_WEBHOOK_DISABLE_AFTER` (15 by default) consecutive failed attempts the webhook is disabled and the account's owner is told by e-mail.",
  scope: "webhooks:write",
  body: createWebhookBody,
  idempotent: true,
  status: 201,
  response: createdWebhookSchema,
  shownOnce: ["secret"],
});

export const listWebhooks = defineOperation({
  operationId: "listWebhooks",
  method: "get",
  path: "/v1/webhooks",
  tag: "Webhooks",
  summary: "List the account's webhooks",
  scope: "webhooks:read",
  query: paginationQuery,
  status: 200,
  response: pageOf(webhookSchema, "WebhookPage"),
});

export const getWebhook = defineOperation({
  operationId: "getWebhook",
  method: "get",
  path: "/v1/webhooks/{webhookId}",
  tag: "Webhooks",
  summary: "Get a webhook",
  scope: "webhooks:read",
  params: webhookParams,
  status: 200,
  response: webhookSchema,
});

export const updateWebhook = defineOperation({
  operationId: "updateWebhook",
  method: "patch",
  path: "/v1/webhooks/{webhookId}",
  tag: "Webhooks",
  summary: "Update a webhook (only the supplied fields), or enable it again",
  scope: "webhooks:write",
  params: webhookParams,
  body: updateWebhookBody,
  status: 200,
  response: webhookSchema,
});

export const deleteWebhook = defineOperation({
  operationId: "deleteWebhook",
  method: "delete",
  path: "/v1/webhooks/{webhookId}",
  tag: "Webhooks",
  summary: "Delete a webhook and its deliveries",
  scope: "webhooks:write",
  params: webhookParams,
  status: 204,
});

export const testWebhook = defineOperation({
  operationId: "testWebhook",
  method: "post",
  path: "/v1/webhooks/{webhookId}/test",
  tag: "Webhooks",
  summary: "Send a signed `webhook.test` event now, and answer how the receiver took it",
  description: "One attempt, not retried; it is recorded among the deliveries and counts like any other attempt. Answers 200 whatever the receiver answered: read `status_code` and `error`.",
  scope: "webhooks:write",
  params: webhookParams,
  status: 200,
  response: webhookDeliverySchema,
});

export const listWebhookDeliveries = defineOperation({
  operationId: "listWebhookDeliveries",
  method: "get",
  path: "/v1/webhooks/{webhookId}/deliveries",
  tag: "Webhooks",
  summary: "List a webhook's delivery attempts, newest first",
  scope: "webhooks:read",
  params: webhookParams,
  query: paginationQuery,
  status: 200,
  response: pageOf(webhookDeliverySchema, "WebhookDeliveryPage"),
});
