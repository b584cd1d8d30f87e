import { receiverPublicParams, siteParams, siteReceiverParams } from "@/lib/api/params";
import { changesBody, changesQueuedSchema, changesWaitingSchema } from "@/lib/changes/schemas";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";
import { changeDeliveryListSchema, changeReceiverSchema, createdReceiverSchema, createReceiverBody, receivedChangeSchema, updateReceiverBody } from "@/lib/changes/receiver-schemas";
import { z } from "zod";
import { defineOperation } from "../operation";

export const createChangeReceiver = defineOperation({
  operationId: "createChangeReceiver",
  method: "post",
  path: "/v1/sites/{siteId}/change-receivers",
  tag: "Changes",
  summary: "Create a change receiver for a system the site is edited in (its secret is shown once)",
  description:
    "Answers the receiver's `url`, to paste into the system's webhook settings, and the `secret` to paste beside it (/docs/site-owners/change-receivers says where, per system). Send `secret` to use the one the system made itself (Shopify's signing key, Vercel's webhook secret, Contentful's signing secret). Shopify receivers start with templates for products, collections and pages. 422 when this server has no `PREHEAT_SECRETS_KEY` to seal the secret with.",
  scope: "sites:write",
  params: siteParams,
  body: createReceiverBody,
  idempotent: true,
  status: 201,
  audit: { action: "change_receiver.created", target: "change_receiver" },
  response: createdReceiverSchema,
  shownOnce: ["secret"],
});

export const listChangeReceivers = defineOperation({
  operationId: "listChangeReceivers",
  method: "get",
  path: "/v1/sites/{siteId}/change-receivers",
  tag: "Changes",
  summary: "List the site's change receivers (without their secrets)",
  scope: "sites:read",
  params: siteParams,
  status: 200,
  response: z.object({ data: z.array(changeReceiverSchema) }).meta({ id: "ChangeReceiverList" }),
});

export const getChangeReceiver = defineOperation({
  operationId: "getChangeReceiver",
  method: "get",
  path: "/v1/sites/{siteId}/change-receivers/{receiverId}",
  tag: "Changes",
  summary: "Get a change receiver (without its secret)",
  scope: "sites:read",
  params: siteReceiverParams,
  status: 200,
  response: changeReceiverSchema,
});

export const updateChangeReceiver = defineOperation({
  operationId: "updateChangeReceiver",
  method: "patch",
  path: "/v1/sites/{siteId}/change-receivers/{receiverId}",
  tag: "Changes",
  summary: "Replace a change receiver's URL templates, or set the system's own secret",
  scope: "sites:write",
  params: siteReceiverParams,
  body: updateReceiverBody,
  status: 200,
  audit: { action: "change_receiver.updated", target: "change_receiver" },
  response: changeReceiverSchema,
});

export const deleteChangeReceiver = defineOperation({
  operationId: "deleteChangeReceiver",
  method: "delete",
  path: "/v1/sites/{siteId}/change-receivers/{receiverId}",
  tag: "Changes",
  summary: "Delete a change receiver and its deliveries: its URL answers 404 from now on",
  scope: "sites:write",
  params: siteReceiverParams,
  status: 204,
  audit: { action: "change_receiver.deleted", target: "change_receiver" },
});

export const rotateChangeReceiverSecret = defineOperation({
  operationId: "rotateChangeReceiverSecret",
  method: "post",
  path: "/v1/sites/{siteId}/change-receivers/{receiverId}/rotate-secret",
  tag: "Changes",
  summary: "Give a change receiver a new secret (shown once); the old one stops working at once",
  scope: "sites:write",
  params: siteReceiverParams,
  idempotent: true,
  status: 200,
  audit: { action: "change_receiver.secret_rotated", target: "change_receiver", id: { param: "receiverId" } },
  response: createdReceiverSchema,
  shownOnce: ["secret"],
});

export const listChangeDeliveries = defineOperation({
  operationId: "listChangeDeliveries",
  method: "get",
  path: "/v1/sites/{siteId}/change-receivers/{receiverId}/deliveries",
  tag: "Changes",
  summary: "The receiver's last 50 deliveries, newest first, with their outcome and why",
  scope: "sites:read",
  params: siteReceiverParams,
  status: 200,
  response: changeDeliveryListSchema,
});

export const receiveChanges = defineOperation({
  operationId: "receiveChanges",
  method: "post",
  path: "/v1/receivers/{publicId}",
  tag: "Changes",
  summary: "Where a system sends its change events: verified by its signature, mapped to URLs, queued",
  description:
    "No key: the system's signature (or secret header) is the credential, checked on the raw body before anything is parsed: **401** `invalid_signature` without a valid one, or with a signed time (Contentful's `x-contentful-timestamp`, Sanity's `t=`) more than 5 minutes away. The body is at most 1 MiB (**413**) and must be JSON (**400** `invalid_json`). **202** with the run the URLs join (`queued: true`), or with `queued: false` and `reason` when nothing was queued: an event that changes no page (`ignored`), or templates that give no URL (`unmapped`, kept among the deliveries with why). A Shopify delivery whose `X-Shopify-Webhook-Id` was received already answers **200** with the first delivery's id and queues nothing. 404 for an unknown or deleted receiver. Requests are limited per client address like any request without a key.",
  auth: "token",
  params: receiverPublicParams,
  status: 202,
  audit: { action: "change_receiver.delivered", target: "change_receiver", coalesce: true },
  response: receivedChangeSchema,
  errors: ["invalid_signature", "invalid_json", "payload_too_large", "quota_exceeded", "site_not_validated", "account_suspended", "plan_limit"],
});

export const queueChanges = defineOperation({
  operationId: "queueChanges",
  method: "post",
  path: "/v1/sites/{siteId}/changes",
  tag: "Changes",
  summary: "Warm pages that changed",
  description: `The pages join the site's waiting changes run, or open one that warms \`delay_seconds\` from now: changes arriving within the delay are warmed together, and a URL sent twice is warmed once. They are warmed with the site's change profile (the variants and regions of its \`change_boost_id\` boost, or a warm's defaults: desktop, \`fr\`), and their calls go ahead of the site's scheduled, triggered and keep-warm runs, within the site's concurrency and pace. The answer is the run they join (\`triggered_by.kind\` \`changes\` in GET /v1/runs/{id}). Quota (403 \`quota_exceeded\`), plan and suspension apply; a site whose ownership is not proven warms at most ${UNVALIDATED_LIMITS.urlsPerRun} URLs and ${UNVALIDATED_LIMITS.callsPerRun} calls a run (the rest are \`left_out\`) and ${UNVALIDATED_LIMITS.runsPerDay} runs a day (429 \`too_many_runs\`).`,
  role: "member",
  scope: "boosts:write",
  params: siteParams,
  body: changesBody,
  idempotent: true,
  status: 202,
  audit: { action: "site.changes_queued", target: "site" },
  response: changesQueuedSchema,
  errors: ["site_not_validated", "quota_exceeded", "plan_limit", "too_many_runs"],
});

export const getChangesWaiting = defineOperation({
  operationId: "getChangesWaiting",
  method: "get",
  path: "/v1/sites/{siteId}/changes",
  tag: "Changes",
  summary: "The site's changes waiting to be warmed, and its last changes runs",
  description:
    "`waiting`: the site's pending changes run (the changes gathered by POST /v1/sites/{siteId}/changes and the change receivers) with its URLs and `warm_at`, or null when no change is waiting. `recent`: the site's last changes runs besides it, newest first, with their status (GET /v1/runs/{run_id} for the rest).",
  scope: "runs:read",
  params: siteParams,
  status: 200,
  response: changesWaitingSchema,
});
