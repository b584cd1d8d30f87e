import { keepWarmStateSchema } from "@/lib/boosts/keep-warm-schemas";
import { paginationQuery, pageOf } from "@/lib/core/pagination";
import { boostParams, siteBoostParams, siteParams } from "@/lib/api/params";
import { boostEstimateSchema, boostSchema } from "@/lib/boosts/schemas";
import { createBoostBody, createSiteBoostBody, updateBoostBody } from "@/lib/core/boost-requests";
import { runQueuedSchema } from "@/lib/runs/schemas";
import { defineOperation } from "../operation";

const UPDATE_WHILE_RUNNING = "409 `run_in_progress` while a run of the boost is pending or running.";

export const createBoost = defineOperation({
  operationId: "createBoost",
  method: "post",
  path: "/v1/boosts",
  tag: "Boosts",
  summary: "Create a boost",
  description: "The body is one of two shapes, told apart by `source_type`: `sitemap` (with `sitemap_ids`) or `csv` (with `source_url`).",
  scope: "boosts:write",
  body: createBoostBody,
  idempotent: true,
  status: 201,
  audit: { action: "boost.created", target: "boost" },
  response: boostSchema,
  errors: ["plan_limit"],
});

export const getBoost = defineOperation({
  operationId: "getBoost",
  method: "get",
  path: "/v1/boosts/{boostId}",
  tag: "Boosts",
  summary: "Get a boost",
  scope: "boosts:read",
  params: boostParams,
  status: 200,
  response: boostSchema,
});

export const getBoostKeepWarm = defineOperation({
  operationId: "getBoostKeepWarm",
  method: "get",
  path: "/v1/boosts/{boostId}/keep-warm",
  tag: "Boosts",
  summary: "What keep-warm does for the boost: pages kept warm, the next re-warm, the month's calls and budget, and the pages not kept warm with why",
  description:
    "A keep-warm boost (`keep_warm: true`) warms each URL × variant × region again when its shared-cache lifetime ends. Entries appear once a run of the boost has warmed them. `not_chased` lists, in the boost's URL order, those that are not kept warm and why: not storable by a shared cache, revalidated on every request, stale on arrival, a lifetime under the floor (the service's shortest interval between two re-warms of a page, 60 s by default), or unknown (then warmed at the boost's schedule, or daily). `limit` and `offset` page that list.",
  scope: "boosts:read",
  params: boostParams,
  query: paginationQuery,
  status: 200,
  response: keepWarmStateSchema,
});

export const putBoost = defineOperation({
  operationId: "putBoost",
  method: "put",
  path: "/v1/boosts/{boostId}",
  tag: "Boosts",
  summary: "Update a boost (only the supplied fields; same as PATCH)",
  description: UPDATE_WHILE_RUNNING,
  scope: "boosts:write",
  params: boostParams,
  body: updateBoostBody,
  status: 200,
  audit: { action: "boost.updated", target: "boost" },
  response: boostSchema,
  errors: ["run_in_progress", "plan_limit"],
});

export const updateBoost = defineOperation({ ...putBoost, operationId: "updateBoost", method: "patch", summary: "Update a boost (only the supplied fields)" });

export const deleteBoost = defineOperation({
  operationId: "deleteBoost",
  method: "delete",
  path: "/v1/boosts/{boostId}",
  tag: "Boosts",
  summary: "Delete a boost and its runs",
  scope: "boosts:write",
  params: boostParams,
  status: 204,
  audit: { action: "boost.deleted", target: "boost" },
});

export const runBoost = defineOperation({
  operationId: "runBoost",
  method: "post",
  path: "/v1/boosts/{boostId}/run",
  tag: "Boosts",
  summary: "Trigger a run now",
  description: "409 `run_in_progress` while a run of the boost is pending or running; 429 `too_many_runs` for a site not validated past its daily runs.",
  role: "member",
  scope: "boosts:write",
  params: boostParams,
  idempotent: true,
  status: 202,
  audit: { action: "boost.run", target: "boost" },
  response: runQueuedSchema,
  errors: ["run_in_progress", "too_many_runs", "plan_limit"],
});

export const estimateBoost = defineOperation({
  operationId: "estimateBoost",
  method: "get",
  path: "/v1/boosts/{boostId}/estimate",
  tag: "Boosts",
  summary: "Estimate what a run would do now, without doing it",
  scope: "boosts:read",
  params: boostParams,
  status: 200,
  response: boostEstimateSchema,
});

export const listSiteBoosts = defineOperation({
  operationId: "listSiteBoosts",
  method: "get",
  path: "/v1/sites/{siteId}/boosts",
  tag: "Boosts",
  summary: "List the site's boosts",
  scope: "boosts:read",
  params: siteParams,
  query: paginationQuery,
  status: 200,
  response: pageOf(boostSchema, "BoostPage"),
});

export const createSiteBoost = defineOperation({
  operationId: "createSiteBoost",
  method: "post",
  path: "/v1/sites/{siteId}/boosts",
  tag: "Boosts",
  summary: "Create a boost for this site",
  description: createBoost.description,
  scope: "boosts:write",
  params: siteParams,
  body: createSiteBoostBody,
  idempotent: true,
  status: 201,
  audit: { action: "boost.created", target: "boost" },
  response: boostSchema,
  errors: ["plan_limit"],
});

export const getSiteBoost = defineOperation({ ...getBoost, operationId: "getSiteBoost", path: "/v1/sites/{siteId}/boosts/{boostId}", summary: "Get a boost of this site", params: siteBoostParams });

export const updateSiteBoost = defineOperation({
  ...updateBoost,
  operationId: "updateSiteBoost",
  path: "/v1/sites/{siteId}/boosts/{boostId}",
  summary: "Update a boost of this site (only the supplied fields)",
  params: siteBoostParams,
});

export const deleteSiteBoost = defineOperation({
  ...deleteBoost,
  operationId: "deleteSiteBoost",
  path: "/v1/sites/{siteId}/boosts/{boostId}",
  summary: "Delete a boost of this site",
  params: siteBoostParams,
});

export const runSiteBoost = defineOperation({
  ...runBoost,
  operationId: "runSiteBoost",
  path: "/v1/sites/{siteId}/boosts/{boostId}/run",
  summary: "Trigger a run of a boost of this site",
  params: siteBoostParams,
});
