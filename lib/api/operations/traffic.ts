import { siteParams, siteTrafficSourceParams } from "@/lib/api/params";
import { paginationQuery } from "@/lib/core/pagination";
import { createTrafficSourceBody, trafficPageSchema, trafficQuery, trafficSourceListSchema, trafficSourceSchema } from "@/lib/traffic/schemas";
import { defineOperation } from "../operation";

export const createTrafficSource = defineOperation({
  operationId: "createTrafficSource",
  method: "post",
  path: "/v1/sites/{siteId}/traffic-sources",
  tag: "Traffic",
  summary: "Add a source of the site's visits: an access log, Plausible or Google Analytics 4",
  description:
    "A source Preheat fetches (an `access_log` with a `url`, `plausible`, `ga4`) is read at once (`status: reading`), then every `read_every_hours` (daily by default) and on demand (POST …/read); GET the source for the outcome. An `access_log` without `url` waits for its upload. Keys (`api_key`, `service_account_key`) are sealed at rest and never returned: 422 when this server has no `PREHEAT_SECRETS_KEY` to seal them with, or when the service-account key is not a service account's JSON key.",
  scope: "sites:write",
  params: siteParams,
  body: createTrafficSourceBody,
  idempotent: true,
  status: 201,
  audit: { action: "traffic_source.created", target: "traffic_source" },
  response: trafficSourceSchema,
});

export const listTrafficSources = defineOperation({
  operationId: "listTrafficSources",
  method: "get",
  path: "/v1/sites/{siteId}/traffic-sources",
  tag: "Traffic",
  summary: "List the site's traffic sources, each with its last read's status and counts",
  scope: "sites:read",
  params: siteParams,
  status: 200,
  response: trafficSourceListSchema,
});

export const getTrafficSource = defineOperation({
  operationId: "getTrafficSource",
  method: "get",
  path: "/v1/sites/{siteId}/traffic-sources/{sourceId}",
  tag: "Traffic",
  summary: "Get a traffic source, with its last read's status and counts",
  scope: "sites:read",
  params: siteTrafficSourceParams,
  status: 200,
  response: trafficSourceSchema,
});

export const deleteTrafficSource = defineOperation({
  operationId: "deleteTrafficSource",
  method: "delete",
  path: "/v1/sites/{siteId}/traffic-sources/{sourceId}",
  tag: "Traffic",
  summary: "Delete a traffic source and the visits it counted",
  scope: "sites:write",
  params: siteTrafficSourceParams,
  status: 204,
  audit: { action: "traffic_source.deleted", target: "traffic_source" },
});

export const readTrafficSource = defineOperation({
  operationId: "readTrafficSource",
  method: "post",
  path: "/v1/sites/{siteId}/traffic-sources/{sourceId}/read",
  tag: "Traffic",
  summary: "Read a source now, whatever its schedule (its log's URL, or its analytics API)",
  description:
    "202 with the source, `status: reading`; GET it for the outcome. A read is all or nothing: one that fails (`status: failed`, `message` says why: a refused or expired key, a rate limit, an unknown site or property, an unreachable log) stores nothing and keeps the visits of the read before. 409 `upload_only_source` for an access log without a `url`.",
  scope: "sites:write",
  params: siteTrafficSourceParams,
  status: 202,
  audit: { action: "traffic_source.read", target: "traffic_source", id: { param: "sourceId" } },
  response: trafficSourceSchema,
  errors: ["upload_only_source"],
});

export const uploadTrafficLog = defineOperation({
  operationId: "uploadTrafficLog",
  method: "post",
  path: "/v1/sites/{siteId}/traffic-sources/{sourceId}/upload",
  tag: "Traffic",
  summary: "Upload an access log (plain or gzip), read as it streams in",
  description:
    "Send the log's bytes as the body (`curl --data-binary @access.log.gz`), any content type but `multipart/form-data`: gzip is recognised by its first bytes. Formats: the Combined and Common Log Formats (nginx's and Apache's defaults), JSON lines (nginx `escape=json`, Caddy's default access log, Cloudflare Logpush `http_requests`), CloudFront's standard log (/docs/site-owners/traffic-logs). Only successful GETs of the site's own host count; assets and bots are left out; a query string is kept only where the site's sitemaps or URL templates keep one. The log is read as it arrives, in a bounded memory whatever its size, up to PREHEAT_TRAFFIC_UPLOAD_MAX_BYTES (1 GiB by default; 413 beyond, nothing stored). The days it holds replace the source's same days: uploading one log twice counts it once. 200 with the source and its `counts`: broken lines are counted and skipped; 422 `unreadable_log` only when not one line could be read. 409 `not_an_access_log` for a Plausible or GA4 source.",
  scope: "sites:write",
  params: siteTrafficSourceParams,
  status: 200,
  audit: { action: "traffic_source.uploaded", target: "traffic_source", id: { param: "sourceId" } },
  response: trafficSourceSchema,
  errors: ["not_an_access_log", "unreadable_log", "payload_too_large", "unsupported_media_type"],
});

export const getTraffic = defineOperation({
  operationId: "getTraffic",
  method: "get",
  path: "/v1/sites/{siteId}/traffic",
  tag: "Traffic",
  summary: "The site's popularity table: visits per page over the last 30 days, by source",
  description:
    "Most visited first (ties by path). A path's `visits` is the most any one source counted (sources see the same visitors); `sources` gives each one's count. An access log's 30 days end at its newest line; an analytics read's are the 30 days before it; the beacon's, the 30 days before now. `format=csv` answers the whole table as a CSV download. Empty until a source has been read: boosts then keep their own order.",
  scope: "sites:read",
  params: siteParams,
  query: paginationQuery.extend(trafficQuery.shape),
  status: 200,
  response: trafficPageSchema,
  csv: true,
});
