import { paginationQuery, pageOf } from "@/lib/core/pagination";
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
    "Each event the webhook subscribes to is POSTed to `url` once (deduplicated per event), retried with exponential back-off for about a day while the receiver does not answer 2xx (the first retry after `PREHEAT_WEBHOOK_RETRY_BASE_SECONDS`, 60 s by default). Until the webhook has answered 2xx once (to an event or a test event), an event is retried 3 times only. After `PREHEAT_WEBHOOK_DISABLE_AFTER` (15 by default) consecutive failed attempts the webhook is disabled and the account's owner is told by e-mail.\n\nAn account has at most `PREHEAT_WEBHOOKS_PER_ACCOUNT` webhooks (10 by default): one more is **403** `webhook_limit`. One webhook per URL: a URL the account already has is **409** `duplicate_webhook`. URLs are compared with the scheme and host lower-cased, without a default port, credentials or fragment, and with a bare host the same as its `/`; the path and the query count (`?a=1` and `?a=2` are two receivers).",
  scope: "webhooks:write",
  wholeOrganization: true,
  body: createWebhookBody,
  idempotent: true,
  errors: ["webhook_limit", "duplicate_webhook"],
  status: 201,
  audit: { action: "webhook.created", target: "webhook" },
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
  wholeOrganization: true,
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
  wholeOrganization: true,
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
  description: "A `url` that another webhook of the account already has (compared as when creating one) is **409** `duplicate_webhook`.",
  scope: "webhooks:write",
  wholeOrganization: true,
  params: webhookParams,
  body: updateWebhookBody,
  errors: ["duplicate_webhook"],
  status: 200,
  audit: { action: "webhook.updated", target: "webhook" },
  response: webhookSchema,
});

export const deleteWebhook = defineOperation({
  operationId: "deleteWebhook",
  method: "delete",
  path: "/v1/webhooks/{webhookId}",
  tag: "Webhooks",
  summary: "Delete a webhook and its deliveries",
  scope: "webhooks:write",
  wholeOrganization: true,
  params: webhookParams,
  status: 204,
  audit: { action: "webhook.deleted", target: "webhook" },
});

export const testWebhook = defineOperation({
  operationId: "testWebhook",
  method: "post",
  path: "/v1/webhooks/{webhookId}/test",
  tag: "Webhooks",
  summary: "Send a signed `webhook.test` event now, and answer how the receiver took it",
  description:
    "One attempt, not retried; it is recorded among the deliveries and counts like any other attempt (a 2xx answer lets the webhook's events be retried on the whole schedule). Answers 200 whatever the receiver answered: read `status_code` and `error`. One test event per webhook every 10 s: another is **429** `rate_limited` with `Retry-After`.",
  scope: "webhooks:write",
  wholeOrganization: true,
  params: webhookParams,
  status: 200,
  audit: { action: "webhook.tested", target: "webhook" },
  response: webhookDeliverySchema,
});

export const listWebhookDeliveries = defineOperation({
  operationId: "listWebhookDeliveries",
  method: "get",
  path: "/v1/webhooks/{webhookId}/deliveries",
  tag: "Webhooks",
  summary: "List a webhook's delivery attempts, newest first",
  scope: "webhooks:read",
  wholeOrganization: true,
  params: webhookParams,
  query: paginationQuery,
  status: 200,
  response: pageOf(webhookDeliverySchema, "WebhookDeliveryPage"),
});
