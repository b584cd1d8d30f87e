/**
 * Every error body's `code`: a stable identifier clients branch on, where `error` is a sentence for
 * people. One list, documented in the OpenAPI document (the Error schema) as it is here.
 */
export const ERROR_CODES = {
  invalid_json: { status: 400, meaning: "The request body is not valid JSON." },
  invalid_path: { status: 400, meaning: "The path has malformed percent-encoding (a `%` not followed by two hexadecimal digits, or bytes that are not UTF-8)." },
  invalid_api_key: { status: 401, meaning: "No API key, or one that is unknown, revoked or expired." },
  invalid_signature: {
    status: 401,
    meaning: "A change receiver's delivery carries no valid signature (or secret) of its system, or one signed too long ago (a replay): `error` says which.",
  },
  session_expired: { status: 401, meaning: "The dashboard session has ended: sign in again." },
  insufficient_scope: { status: 403, meaning: "The API key lacks the scope the operation requires (`required_scope`)." },
  insufficient_role: { status: 403, meaning: "The signed-in member's role in the organization does not allow the operation (`required_role`; the roles are viewer, member, admin, owner)." },
  site_limited_key: { status: 403, meaning: "The API key is limited to some sites (`site_ids`) and the operation concerns the whole organization (registering a site, webhooks)." },
  two_factor_required: { status: 403, meaning: "The organization requires two-factor sign-in and the signed-in member has not turned it on: do so on the Account page." },
  dashboard_only: { status: 403, meaning: "The operation belongs to the dashboard (its header, from a signed-in session)." },
  account_suspended: { status: 403, meaning: "The operator of this service has suspended the organization (`error` gives the reason): its keys and members can do nothing until it is resumed." },
  plan_limit: {
    status: 403,
    meaning:
      "The organization's plan does not allow this: `limit` names the limit (monthly_calls, sites, max_site_concurrency, regions, run_results_max, verification, run_retention_days) and `plan` the plan (GET /v1/me shows its limits).",
  },
  quota_exceeded: { status: 403, meaning: "The account's monthly call quota cannot cover the request." },
  webhook_limit: { status: 403, meaning: "The account has as many webhooks as it may (PREHEAT_WEBHOOKS_PER_ACCOUNT, 10 by default): delete one first." },
  origin_not_allowed: {
    status: 403,
    meaning: "A beacon's page view (POST /b) came without an `Origin`, or from a page that is not on the site's domain (or its `www.` form): nothing was counted.",
  },
  not_found: { status: 404, meaning: "No such resource for this account (another account's resources do not exist for it), or no such endpoint." },
  method_not_allowed: { status: 405, meaning: "The path exists, not with this method (`Allow` lists those it takes)." },
  run_in_progress: { status: 409, meaning: "The boost has a run pending or running: wait for it to end." },
  warm_in_progress: { status: 409, meaning: "The site has a warm run pending or running: wait for it to end." },
  upload_only_source: {
    status: 409,
    meaning: "The traffic source is an access log without a `url`: Preheat has nothing to fetch, so it is read by its upload (POST …/traffic-sources/{sourceId}/upload).",
  },
  not_an_access_log: { status: 409, meaning: "Only an `access_log` traffic source takes an upload: Plausible and GA4 sources are read from their APIs." },
  site_not_validated: { status: 409, meaning: "The site's ownership is not proven yet: validate it first." },
  idempotency_in_progress: { status: 409, meaning: "A request with this Idempotency-Key is still being handled: retry in a moment." },
  conflict: { status: 409, meaning: "The request clashes with the current state of the resource." },
  last_owner: { status: 409, meaning: "The organization must keep an owner: make another member owner before this one leaves or is demoted." },
  already_member: { status: 409, meaning: "The address already belongs to a member of the organization, or has an invitation waiting (resend that one)." },
  invitation_unusable: { status: 409, meaning: "The invitation was accepted, declined, revoked or has expired: ask for a new one." },
  duplicate_site: { status: 409, meaning: "The account already has this site." },
  duplicate_sitemap: { status: 409, meaning: "The site already has this sitemap." },
  duplicate_webhook: {
    status: 409,
    meaning: "The account already has a webhook to this URL (the same once the scheme and host are lower-cased and a default port or the host's bare `/` dropped; the query counts): edit that one.",
  },
  payload_too_large: { status: 413, meaning: "The request body is over the size limit." },
  unsupported_media_type: { status: 415, meaning: "The body must be sent as JSON (Content-Type: application/json)." },
  validation_failed: { status: 422, meaning: "A path, query or body value is invalid (`details` names the fields)." },
  unreadable_log: { status: 422, meaning: "Not one line of the uploaded log could be read as a known access-log format (/docs/site-owners/traffic-logs lists them): nothing was stored." },
  ownership_not_proven: { status: 422, meaning: "No ownership proof (token file, meta tag, DNS TXT record) was found: `error` says why, for each method." },
  idempotency_conflict: { status: 422, meaning: "This Idempotency-Key was already used with another request (another operation, path or body)." },
  rate_limited: { status: 429, meaning: "Too many requests or attempts: try again after `Retry-After` seconds." },
  too_many_runs: { status: 429, meaning: "A site not validated runs at most 24 boost runs in 24 hours: `Retry-After` says when the next may start." },
  internal_error: { status: 500, meaning: "A server error: details are logged under the request's X-Request-Id, never returned." },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
