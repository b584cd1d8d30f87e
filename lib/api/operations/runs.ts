import { paginationQuery, pageOf } from "@/lib/core/pagination";
import { runParams, siteParams } from "@/lib/api/params";
import { runDetailSchema, runResultsPageSchema, runResultsQuery, runsListQuery, runsPageSchema, warmRunSchema } from "@/lib/runs/schemas";
import { warmBody, warmQueuedSchema } from "@/lib/runs/warm-schemas";
import { defineOperation } from "../operation";

export const warmSite = defineOperation({
  operationId: "warmSite",
  method: "post",
  path: "/v1/sites/{siteId}/warm",
  tag: "Warm",
  summary: "Queue an on-demand warm",
  description:
    "The site must be validated (409 `site_not_validated` otherwise). 403 `quota_exceeded` when the monthly quota cannot cover URLs × user agents × languages × regions; 409 `warm_in_progress` while a warm run of the site is pending or running.",
  role: "member",
  scope: "boosts:write",
  params: siteParams,
  body: warmBody,
  idempotent: true,
  status: 202,
  audit: { action: "site.warmed", target: "site" },
  response: warmQueuedSchema,
  errors: ["site_not_validated", "warm_in_progress", "quota_exceeded", "plan_limit"],
});

export const listWarmRuns = defineOperation({
  operationId: "listWarmRuns",
  method: "get",
  path: "/v1/sites/{siteId}/warm-runs",
  tag: "Warm",
  summary: "List the site's warm runs",
  scope: "boosts:read",
  params: siteParams,
  query: paginationQuery,
  status: 200,
  response: pageOf(warmRunSchema, "WarmRunPage"),
});

export const listRuns = defineOperation({
  operationId: "listRuns",
  method: "get",
  path: "/v1/runs",
  tag: "Runs",
  summary: "List boost runs",
  scope: "runs:read",
  query: paginationQuery.extend(runsListQuery.shape),
  status: 200,
  response: runsPageSchema,
});

export const getRun = defineOperation({
  operationId: "getRun",
  method: "get",
  path: "/v1/runs/{runId}",
  tag: "Runs",
  summary: "Get a run (boost or warm) with its full summary",
  scope: "runs:read",
  params: runParams,
  status: 200,
  response: runDetailSchema,
});

export const listRunResults = defineOperation({
  operationId: "listRunResults",
  method: "get",
  path: "/v1/runs/{runId}/results",
  tag: "Runs",
  summary: "List a run's calls, URL by URL, with why each did not end as a cache hit",
  description:
    "The run's calls (first pass), in call order, each with its answer and its reason (null for a cache hit). By default only the calls that did not end as a cache hit; `calls=all` lists every call and `calls=hit` the hits; `url` finds the calls whose URL contains a text. A run keeps the rows of its first PREHEAT_RUN_RESULTS_MAX calls (100,000 by default, or its plan's bound): `truncated` says when it made more, and its summary counts them all. `format=csv` answers every stored row that matches the filters as `text/csv` (a download, header row first) instead of one JSON page.",
  scope: "runs:read",
  params: runParams,
  query: paginationQuery.extend(runResultsQuery.shape),
  status: 200,
  response: runResultsPageSchema,
  csv: true,
});
