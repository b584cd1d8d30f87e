import { paginationQuery, pageOf } from "@/lib/core/pagination";
import { runParams, siteParams } from "@/lib/api/params";
import { runDetailSchema, runResultsPageSchema, runResultsQuery, runsListQuery, runsPageSchema, warmRunSchema } from "@/lib/runs/schemas";
import { warmBody, warmQueuedSchema } from "@/lib/runs/warm-schemas";
import { siteFreshnessQuery, siteFreshnessSchema } from "@/lib/freshness/history-schemas";
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

export const getSiteFreshness = defineOperation({
  operationId: "getSiteFreshness",
  method: "get",
  path: "/v1/sites/{siteId}/freshness",
  tag: "Runs",
  summary: "The site's pages fresh in the CDN, and its calls, hour by hour",
  description:
    "Per UTC hour, from every run of the site (warms, boost runs, keep-warm runs), kept as hourly figures when the calls are recorded, so they do not depend on the per-call results (capped per run).\n\n" +
    "- **An entry** is a URL × variant × region Preheat has called. It is *known* at an hour's end when Preheat had an answer for it within the 32 days before (a page no run asks for any more stops counting a month after its last answer).\n" +
    "- **Fresh** at an hour's end: the entry's last answer before that moment, as a shared cache reads it (the results' `fresh_until`: `s-maxage`, the CDN's targeted fields, `Age`, `Expires`), was still fresh then. It is Preheat's reading of the CDN's answers, not visitors' hits. A page counts fresh at most 32 days after its last answer.\n" +
    "- **Calls**: the warming calls recorded in the hour (within a quarter of a second of their answer), the runs' `total_calls`; `hits` the cache hits among them. Visitor-check calls are counted apart; verification calls are not counted.\n\n" +
    "The hours run from `from`'s hour to `to` (the last 7 days by default, at most 31 days: 422 beyond) and only hours that have ended are answered. Hours older than the plan keeps runs are not kept: `from` in the answer says where the figures start.",
  scope: "runs:read",
  params: siteParams,
  query: siteFreshnessQuery,
  status: 200,
  response: siteFreshnessSchema,
});
