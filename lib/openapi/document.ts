import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { meSchema } from "@/lib/accounts/me";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, pageOf } from "@/lib/api/pagination";
import { errorSchema } from "@/lib/api/schemas";
import type { Scope } from "@/lib/auth/scopes";
import { boostEstimateSchema, boostSchema, createBoostBody, createSiteBoostBody, updateBoostBody } from "@/lib/boosts/schemas";
import { runDetailSchema, runQueuedSchema, runResultsPageSchema, runResultsQuery, runsPageSchema, warmRunSchema } from "@/lib/runs/schemas";
import { addSitemapBody, discoveredSitemapsSchema, sitemapSchema } from "@/lib/sitemaps/schemas";
import { updateSiteBody } from "@/lib/sites/pace";
import { createSiteBody, siteSchema, validateSiteResponse, validationFailedResponse } from "@/lib/sites/schemas";
import { warmBody, warmQueuedSchema } from "@/lib/runs/warm-schemas";
import { API_DESCRIPTION } from "./description";

type Method = "get" | "post" | "put" | "patch" | "delete";
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429;

const errorMeaning: Record<ErrorStatus, string> = {
  400: "The body is not valid JSON.",
  401: "Missing, invalid, expired or revoked API key.",
  403: "The key lacks the required scope.",
  404: "Not found, or not accessible with this key.",
  409: "Conflict with the current state.",
  413: "The body is larger than 2 MiB.",
  422: "Invalid path, query or body values.",
  429: "Too many runs: a site that is not validated runs at most 24 boost runs in 24 hours (`Retry-After` says when the next may start).",
};

/** Path parameters are integers; the document says so (the handlers parse them from the path). */
const ids = (...names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, z.number().int().min(1)])));
const pageQuery = z.object({
  limit: z.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT).optional(),
  offset: z.number().int().min(0).default(0).optional(),
});

type Operation = {
  method: Method;
  path: string;
  summary: string;
  tag: "Sites" | "Sitemaps" | "Boosts" | "Warm" | "Runs" | "Account";
  scope?: Scope;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  status: 200 | 201 | 202 | 204;
  response?: z.ZodType;
  errors: ErrorStatus[];
  /** The success answer also comes as CSV (`format=csv`). */
  csv?: boolean;
  /** Extra documented answers, e.g. the validate operation's 422 body. */
  extra?: Record<number, { description: string; schema: z.ZodType }>;
  description?: string;
};

export const operations: Operation[] = [
  { method: "get", path: "/v1/me", tag: "Account", summary: "The caller's account, key scopes, regions and quota", status: 200, response: meSchema, errors: [401] },
  { method: "get", path: "/v1/sites", tag: "Sites", summary: "List sites", scope: "sites:read", query: pageQuery, status: 200, response: pageOf(siteSchema, "SitePage"), errors: [401, 403, 422] },
  { method: "post", path: "/v1/sites", tag: "Sites", summary: "Register a site", scope: "sites:write", body: createSiteBody, status: 201, response: siteSchema, errors: [400, 401, 403, 409, 413, 422] },
  { method: "get", path: "/v1/sites/{siteId}", tag: "Sites", summary: "Get a site (with its validation token)", scope: "sites:read", params: ids("siteId"), status: 200, response: siteSchema, errors: [401, 403, 404, 422] },
  {
    method: "patch",
    path: "/v1/sites/{siteId}",
    tag: "Sites",
    summary: "Set the site's pace (only the supplied fields)",
    description:
      "`max_concurrency` bounds the calls the whole service (every worker process, run and region) sends the site at once; `max_requests_per_second` caps how many start per second. Beyond these, the engine slows down on its own when the site does (see the run's `slowdowns`).",
    scope: "sites:write",
    params: ids("siteId"),
    body: updateSiteBody,
    status: 200,
    response: siteSchema,
    errors: [400, 401, 403, 404, 413, 422],
  },
  { method: "delete", path: "/v1/sites/{siteId}", tag: "Sites", summary: "Delete a site with its sitemaps, boosts and runs", scope: "sites:write", params: ids("siteId"), status: 204, errors: [401, 403, 404, 422] },
  {
    method: "post",
    path: "/v1/sites/{siteId}/validate",
    tag: "Sites",
    summary: "Validate ownership now",
    description: "Synchronous. Requests the site over HTTPS, then HTTP: first `/{validation_token}.html` (HTTP 200), then a `<meta name=\"service-token\" content=\"{validation_token}\">` in the homepage head.",
    scope: "sites:write",
    params: ids("siteId"),
    status: 200,
    response: validateSiteResponse,
    errors: [401, 403, 404],
    extra: { 422: { description: "Token not found, or the site could not be reached (the reason is in `error`).", schema: validationFailedResponse } },
  },
  { method: "get", path: "/v1/sites/{siteId}/sitemaps", tag: "Sitemaps", summary: "List the site's sitemaps", scope: "sites:read", params: ids("siteId"), query: pageQuery, status: 200, response: pageOf(sitemapSchema, "SitemapPage"), errors: [401, 403, 404, 422] },
  { method: "post", path: "/v1/sites/{siteId}/sitemaps", tag: "Sitemaps", summary: "Add a sitemap or feed, or discover the site's sitemaps (processed in the background)", scope: "sites:write", params: ids("siteId"), body: addSitemapBody, status: 201, response: z.union([sitemapSchema, discoveredSitemapsSchema]), errors: [400, 401, 403, 404, 409, 413, 422] },
  { method: "get", path: "/v1/sites/{siteId}/sitemaps/{sitemapId}", tag: "Sitemaps", summary: "Get a sitemap", scope: "sites:read", params: ids("siteId", "sitemapId"), status: 200, response: sitemapSchema, errors: [401, 403, 404, 422] },
  { method: "delete", path: "/v1/sites/{siteId}/sitemaps/{sitemapId}", tag: "Sitemaps", summary: "Delete a sitemap and its URLs", scope: "sites:write", params: ids("siteId", "sitemapId"), status: 204, errors: [401, 403, 404, 422] },
  { method: "post", path: "/v1/sites/{siteId}/sitemaps/{sitemapId}/refresh", tag: "Sitemaps", summary: "Read the sitemap again now (a conditional GET; processed in the background)", scope: "sites:write", params: ids("siteId", "sitemapId"), status: 202, response: sitemapSchema, errors: [401, 403, 404, 422] },
  { method: "post", path: "/v1/boosts", tag: "Boosts", summary: "Create a boost", scope: "boosts:write", body: createBoostBody, status: 201, response: boostSchema, errors: [400, 401, 403, 404, 413, 422] },
  { method: "get", path: "/v1/boosts/{boostId}", tag: "Boosts", summary: "Get a boost", scope: "boosts:read", params: ids("boostId"), status: 200, response: boostSchema, errors: [401, 403, 404, 422] },
  { method: "put", path: "/v1/boosts/{boostId}", tag: "Boosts", summary: "Update a boost (only the supplied fields)", scope: "boosts:write", params: ids("boostId"), body: updateBoostBody, status: 200, response: boostSchema, errors: [400, 401, 403, 404, 409, 413, 422] },
  { method: "patch", path: "/v1/boosts/{boostId}", tag: "Boosts", summary: "Update a boost (same as PUT)", scope: "boosts:write", params: ids("boostId"), body: updateBoostBody, status: 200, response: boostSchema, errors: [400, 401, 403, 404, 409, 413, 422] },
  { method: "delete", path: "/v1/boosts/{boostId}", tag: "Boosts", summary: "Delete a boost and its runs", scope: "boosts:write", params: ids("boostId"), status: 204, errors: [401, 403, 404, 422] },
  { method: "post", path: "/v1/boosts/{boostId}/run", tag: "Boosts", summary: "Trigger a run now", scope: "boosts:write", params: ids("boostId"), status: 202, response: runQueuedSchema, errors: [401, 403, 404, 409, 422, 429] },
  { method: "get", path: "/v1/boosts/{boostId}/estimate", tag: "Boosts", summary: "Estimate what a run would do now, without doing it", scope: "boosts:read", params: ids("boostId"), status: 200, response: boostEstimateSchema, errors: [401, 403, 404, 422] },
  { method: "get", path: "/v1/sites/{siteId}/boosts", tag: "Boosts", summary: "List the site's boosts", scope: "boosts:read", params: ids("siteId"), query: pageQuery, status: 200, response: pageOf(boostSchema, "BoostPage"), errors: [401, 403, 404, 422] },
  { method: "post", path: "/v1/sites/{siteId}/boosts", tag: "Boosts", summary: "Create a boost for this site", scope: "boosts:write", params: ids("siteId"), body: createSiteBoostBody, status: 201, response: boostSchema, errors: [400, 401, 403, 404, 413, 422] },
  { method: "get", path: "/v1/sites/{siteId}/boosts/{boostId}", tag: "Boosts", summary: "Get a boost of this site", scope: "boosts:read", params: ids("siteId", "boostId"), status: 200, response: boostSchema, errors: [401, 403, 404, 422] },
  { method: "patch", path: "/v1/sites/{siteId}/boosts/{boostId}", tag: "Boosts", summary: "Update a boost of this site (only the supplied fields)", scope: "boosts:write", params: ids("siteId", "boostId"), body: updateBoostBody, status: 200, response: boostSchema, errors: [400, 401, 403, 404, 409, 413, 422] },
  { method: "delete", path: "/v1/sites/{siteId}/boosts/{boostId}", tag: "Boosts", summary: "Delete a boost of this site", scope: "boosts:write", params: ids("siteId", "boostId"), status: 204, errors: [401, 403, 404, 422] },
  { method: "post", path: "/v1/sites/{siteId}/boosts/{boostId}/run", tag: "Boosts", summary: "Trigger a run of a boost of this site", scope: "boosts:write", params: ids("siteId", "boostId"), status: 202, response: runQueuedSchema, errors: [401, 403, 404, 409, 422, 429] },
  {
    method: "post",
    path: "/v1/sites/{siteId}/warm",
    tag: "Warm",
    summary: "Queue an on-demand warm",
    description: "The site must be validated (409 otherwise). 403 when the monthly quota cannot cover URLs × user agents × languages × regions; 409 while a warm run of the site is pending or running.",
    scope: "boosts:write",
    params: ids("siteId"),
    body: warmBody,
    status: 202,
    response: warmQueuedSchema,
    errors: [400, 401, 403, 404, 409, 413, 422],
  },
  { method: "get", path: "/v1/sites/{siteId}/warm-runs", tag: "Warm", summary: "List the site's warm runs", scope: "boosts:read", params: ids("siteId"), query: pageQuery, status: 200, response: pageOf(warmRunSchema, "WarmRunPage"), errors: [401, 403, 404, 422] },
  {
    method: "get",
    path: "/v1/runs",
    tag: "Runs",
    summary: "List boost runs",
    scope: "runs:read",
    query: pageQuery.extend({ boost_id: z.number().int().min(1).optional() }),
    status: 200,
    response: runsPageSchema,
    errors: [401, 403, 422],
  },
  { method: "get", path: "/v1/runs/{runId}", tag: "Runs", summary: "Get a run (boost or warm) with its full summary", scope: "runs:read", params: ids("runId"), status: 200, response: runDetailSchema, errors: [401, 403, 404, 422] },
  {
    method: "get",
    path: "/v1/runs/{runId}/results",
    tag: "Runs",
    summary: "List the calls that did not end as a cache hit, with why",
    description:
      "The run's calls that did not end as a cache hit (first pass), in call order, each with its reason. Hits are counted in the summary, not listed. At most PREHEAT_RUN_RESULTS_MAX rows (100,000 by default) are kept per run: `truncated` says when the run had more. `format=csv` answers every stored row that matches the filters as `text/csv` (a download, header row first) instead of one JSON page.",
    scope: "runs:read",
    params: ids("runId"),
    query: pageQuery.extend(runResultsQuery.shape),
    status: 200,
    response: runResultsPageSchema,
    csv: true,
    errors: [401, 403, 404, 422],
  },
];

function routeOf(op: Operation): RouteConfig {
  const responses: RouteConfig["responses"] = {
    [op.status]: op.response
      ? {
          description: "Success.",
          content: {
            "application/json": { schema: op.response },
            ...(op.csv ? { "text/csv": { schema: { type: "string", description: "The same rows as CSV, a header row first." } } } : {}),
          },
        }
      : { description: "Done; no content." },
  };
  for (const status of op.errors) responses[status] = { description: errorMeaning[status], content: { "application/json": { schema: errorSchema } } };
  for (const [status, answer] of Object.entries(op.extra ?? {})) responses[status] = { description: answer.description, content: { "application/json": { schema: answer.schema } } };
  responses[500] = { description: "Server error (details are logged, never returned).", content: { "application/json": { schema: errorSchema } } };
  return {
    method: op.method,
    path: op.path.replace(/\{(\w+)\}/g, "{$1}"),
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, op.scope ? `Scope: \`${op.scope}\`.` : "Any valid key."].filter(Boolean).join("\n\n"),
    security: [{ bearerAuth: op.scope ? [op.scope] : [] }],
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.body ? { body: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    },
    responses,
    ...(op.scope ? { "x-required-scope": op.scope } : {}),
  } as RouteConfig;
}

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "An API key (`phk_…`)." });
  for (const op of operations) registry.registerPath(routeOf(op));
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: "Preheat API", version: "1.0.0", description: API_DESCRIPTION },
    servers: [{ url: "/", description: "This server; every path begins with /v1." }],
    tags: [
      { name: "Account", description: "Who the key belongs to." },
      { name: "Sites", description: "Domains and their ownership validation." },
      { name: "Sitemaps", description: "XML sitemaps, sitemap indexes and RSS/Atom feeds of a site." },
      { name: "Boosts", description: "Warming campaigns, on demand or on a cron schedule (UTC)." },
      { name: "Warm", description: "On-demand warming of a list of URLs." },
      { name: "Runs", description: "Executions of boosts and warms, with statistics." },
    ],
  });
  return cached;
}
