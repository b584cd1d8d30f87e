import { paginationQuery, pageOf } from "@/lib/core/pagination";
import { siteParams } from "@/lib/api/params";
import { updateSiteBody } from "@/lib/sites/pace";
import { createSiteBody, rotatedVerificationSchema, siteSchema, validateSiteResponse, validationFailedResponse } from "@/lib/sites/schemas";
import { defineOperation } from "../operation";

export const listSites = defineOperation({
  operationId: "listSites",
  method: "get",
  path: "/v1/sites",
  tag: "Sites",
  summary: "List sites",
  scope: "sites:read",
  query: paginationQuery,
  status: 200,
  response: pageOf(siteSchema, "SitePage"),
});

export const createSite = defineOperation({
  operationId: "createSite",
  method: "post",
  path: "/v1/sites",
  tag: "Sites",
  summary: "Register a site",
  scope: "sites:write",
  wholeOrganization: true,
  body: createSiteBody,
  idempotent: true,
  status: 201,
  audit: { action: "site.created", target: "site" },
  response: siteSchema,
  errors: ["duplicate_site", "plan_limit"],
});

export const getSite = defineOperation({
  operationId: "getSite",
  method: "get",
  path: "/v1/sites/{siteId}",
  tag: "Sites",
  summary: "Get a site (with its validation token)",
  scope: "sites:read",
  params: siteParams,
  status: 200,
  response: siteSchema,
});

export const updateSite = defineOperation({
  operationId: "updateSite",
  method: "patch",
  path: "/v1/sites/{siteId}",
  tag: "Sites",
  summary: "Set the site's pace (only the supplied fields)",
  description:
    "`max_concurrency` bounds the calls the whole service (every worker process, run and region) sends the site at once; `max_requests_per_second` caps how many start per second. Beyond these, the engine slows down on its own when the site does (see the run's `slowdowns`).",
  scope: "sites:write",
  params: siteParams,
  body: updateSiteBody,
  status: 200,
  audit: { action: "site.updated", target: "site" },
  response: siteSchema,
  errors: ["plan_limit"],
});

export const deleteSite = defineOperation({
  operationId: "deleteSite",
  method: "delete",
  path: "/v1/sites/{siteId}",
  tag: "Sites",
  summary: "Delete a site with its sitemaps, boosts and runs",
  scope: "sites:write",
  params: siteParams,
  status: 204,
  audit: { action: "site.deleted", target: "site" },
});

export const validateSite = defineOperation({
  operationId: "validateSite",
  method: "post",
  path: "/v1/sites/{siteId}/validate",
  tag: "Sites",
  summary: "Validate ownership now",
  description:
    "Synchronous. Three methods, in this order (except for a site last proven by its DNS record, looked up in DNS first); the first that proves ownership is recorded as `method`. Requests the site over HTTPS, then HTTP. First the token file `/{validation_token}.html` together with a random file of the same shape that does not exist (the control, requested every time): the file passes when it answers 200 and the control does not, or when it contains the token and the control, answered 200 too, does not repeat its own name. A site that answers 200 for any address and repeats the address in its page (a soft 404, a search page) proves ownership with a file only when the file's whole content is the token (surrounding whitespace aside), as Google asks of its verification file. Then a real `<meta name=\"service-token\" content=\"{validation_token}\">` in the homepage `<head>` (not in the body, a comment, a script, a template or a noscript). Then, without any request to the site (which need not answer at all), a DNS TXT record on `_preheat-challenge.{domain}` (the domain without its port) whose value is `preheat-site-verification={validation_token}`: a CNAME on that name is followed, the strings of one record are joined (a value split in several strings counts whole), and any of the name's TXT records may be the one. The service's resolvers (the operator's `PREHEAT_DNS_SERVERS`) are asked for at most 5 seconds. When no proof is found the answer is 422 `SiteValidationFailed` (`validated: false`, code `ownership_not_proven`) whose `error` names each method and why it failed (for instance `Token file: /….html answered 404, not 200. Meta tag: …. DNS TXT record: _preheat-challenge.example.com does not exist (NXDOMAIN).`, or `DNS TXT record: no DNS server answered within 5 s.`); a malformed `siteId` is a 422 `Error`. A validated site answers `already_validated: true` without a new check, unless a recheck found its proof missing (`ownership_recheck.proof_missing_since`): then the proof is looked for now, and found, the notice ends. Rechecks try the same three methods, in the same order: a site proven by its DNS record is rechecked without any request to it while the record holds.",
  scope: "sites:write",
  params: siteParams,
  status: 200,
  audit: { action: "site.validated", target: "site" },
  response: validateSiteResponse,
  errors: ["ownership_not_proven"],
  otherAnswers: { 422: { description: "Ownership not proven (the reason is in `error`), or an invalid `siteId`.", schema: validationFailedResponse } },
});

export const rotateVerificationSecret = defineOperation({
  operationId: "rotateVerificationSecret",
  method: "post",
  path: "/v1/sites/{siteId}/verification/rotate",
  tag: "Sites",
  summary: "Replace the site's verification secret (the `Preheat-Verification` header)",
  description:
    "Makes a new `verification_secret` and answers it. From now on warming calls send the new one (a run in progress takes it up within about 20 s) and never the old one again: update the firewall rule that compares it, ideally accepting both values until then. The secret is not shown once only: `GET /v1/sites/{siteId}` shows it as long as it is in use. Not idempotent: a retried request rotates again, and its answer holds the secret then in use.",
  scope: "sites:write",
  params: siteParams,
  status: 200,
  audit: { action: "site.verification_rotated", target: "site" },
  response: rotatedVerificationSchema,
});
