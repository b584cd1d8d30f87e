import { paginationQuery, pageOf } from "@/lib/core/pagination";
import { boostHookParams, boostParams, hookTokenParams } from "@/lib/api/params";
import { boostHookSchema, createdBoostHookSchema, createHookBody, hookTriggeredSchema } from "@/lib/boosts/hook-schemas";
import { defineOperation } from "../operation";

export const createBoostHook = defineOperation({
  operationId: "createBoostHook",
  method: "post",
  path: "/v1/boosts/{boostId}/hooks",
  tag: "Hooks",
  summary: "Create a deploy hook: a secret URL that starts the boost (shown once)",
  scope: "boosts:write",
  params: boostParams,
  body: createHookBody,
  idempotent: true,
  status: 201,
  audit: { action: "hook.created", target: "hook" },
  response: createdBoostHookSchema,
  shownOnce: ["url"],
});

export const listBoostHooks = defineOperation({
  operationId: "listBoostHooks",
  method: "get",
  path: "/v1/boosts/{boostId}/hooks",
  tag: "Hooks",
  summary: "List the boost's deploy hooks (without their URLs)",
  scope: "boosts:read",
  params: boostParams,
  query: paginationQuery,
  status: 200,
  response: pageOf(boostHookSchema, "BoostHookPage"),
});

export const deleteBoostHook = defineOperation({
  operationId: "deleteBoostHook",
  method: "delete",
  path: "/v1/boosts/{boostId}/hooks/{hookId}",
  tag: "Hooks",
  summary: "Revoke a deploy hook: its URL answers 404 from now on",
  scope: "boosts:write",
  params: boostHookParams,
  status: 204,
  audit: { action: "hook.deleted", target: "hook" },
});

export const triggerHook = defineOperation({
  operationId: "triggerHook",
  method: "post",
  path: "/v1/hooks/{token}",
  tag: "Hooks",
  summary: "Start the hook's boost (for CI, a CMS or a purge); calls during a run are coalesced",
  description:
    "With no run of the boost pending or running, starts one (`coalesced: false`). Otherwise the call is coalesced (`coalesced: true`): a pending run covers it; while a run is warming, one follow-up run waits and starts when it ends, however many calls arrive meanwhile. A body, if any, is ignored. 404 for an unknown or revoked hook; 429 `too_many_runs` for a site not validated past its daily runs. Requests are limited per client address like any request without a key.",
  auth: "token",
  params: hookTokenParams,
  status: 202,
  audit: { action: "hook.triggered", target: "hook", coalesce: true },
  response: hookTriggeredSchema,
  errors: ["too_many_runs", "account_suspended", "plan_limit"],
});
