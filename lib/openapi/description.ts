import { DEFAULT_MONTHLY_CALL_QUOTA } from "@/lib/runs/quota";
import { MAX_JSON_DEPTH } from "@/lib/api/input";
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "@/lib/core/pagination";
import { SCOPES } from "@/lib/auth/scopes";
import { CONTENT_TYPES, MAX_LANGUAGES } from "@/lib/core/variations";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";
import { REGIONS } from "@/lib/core/regions";
import { ROLE_GRANTS, ROLES } from "@/lib/core/roles";

/** What the specification leaves "not shown", decided here once and published in the document. */
export const API_DESCRIPTION = `
Preheat warms the caches of websites. Register a site, prove you own it, then warm URLs on demand
or define boosts (warming campaigns fed by sitemaps, feeds or a CSV file), optionally on a cron schedule.

## Authentication
Every request carries \`Authorization: Bearer <key>\`. Keys start with \`phk_\`, are shown once and stored hashed.
Create them in the dashboard (API keys), each with the scopes its job needs.
A missing, unknown, expired or revoked key gives **401** \`invalid_api_key\`;
a key without the operation's scope gives **403** \`insufficient_scope\` naming the scope (\`required_scope\`).
Scopes (each operation names its own in \`x-required-scope\`; the bearer scheme's \`x-scopes\` says what each allows):
${SCOPES.map((s) => `\`${s}\``).join(", ")}. Reads need the \`:read\` scope of their resource;
\`GET /v1/me\` needs none. Another account's resource answers **404**, exactly as a missing one.
The dashboard calls the same operations (except \`GET /v1/me\`) with its session cookie and the header
\`x-preheat-dashboard: 1\` instead of a key; without a valid session (none, or one ended by a password change or
"Sign out everywhere") that answers **401** \`session_expired\`. A request with an \`Authorization\` header is always judged by its key.

## Organizations and roles
Sites, boosts, runs, webhooks and keys belong to an organization (called an account before teams: \`GET /v1/me\`'s \`account\`
is the key's organization). A key acts for its organization with its scopes. A signed-in member acts with the member's
role, which each operation names in \`x-required-role\`; a role it does not reach answers **403** \`insufficient_role\`
with \`required_role\` and \`role\`:
${ROLES.map((role) => `- \`${role}\` ${ROLE_GRANTS[role]}`).join("\n")}

## Errors
Every error is a JSON object \`{"error": "<sentence>", "code": "<code>"}\`: \`error\` is for people and may be reworded,
\`code\` is stable, from the one list in the \`Error\` schema (\`invalid_api_key\`, \`insufficient_scope\`, \`quota_exceeded\`,
\`not_found\`, \`run_in_progress\`, \`warm_in_progress\`, \`site_not_validated\`, \`duplicate_site\`, \`duplicate_sitemap\`,
\`validation_failed\`, \`idempotency_conflict\`, \`payload_too_large\`, \`rate_limited\`, …); each operation lists the codes it
can answer under each status. Validation failures (**422**) add \`details\`, a list of
\`{field, message}\`. Malformed JSON is **400** \`invalid_json\`, a body over 2 MiB (2,097,152 bytes) **413** \`payload_too_large\`,
a body nesting arrays and objects more than ${MAX_JSON_DEPTH} levels deep **422** \`validation_failed\` (MCP tool calls alike),
a non-integer id in a path **422**, a path with malformed percent-encoding (\`/v1/sites/%ZZ\`) **400** \`invalid_path\`,
an unknown path **404**, an unsupported method **405**. A **500** answers \`{"error":"Internal server error.","code":"internal_error"}\`.
Unknown body fields are ignored.

Every answer carries **\`X-Request-Id\`**: the one the request sent when it is 1 to 128 letters, digits, \`-\`, \`_\` or \`.\`,
otherwise a new one. Server logs name it: quote it when reporting a problem.

## Rate limits
Each API key has a budget of requests per minute (the operator's \`PREHEAT_RATE_LIMIT_PER_MINUTE\`, 600 by default), counted
where every server sees it (the PostgreSQL database; on the embedded one, which one server owns, that server), so it
holds however many servers answer; the dashboard's signed-in account has one too, and requests
without a valid key draw on their client address's. Every answer carries \`RateLimit-Limit\` (the budget),
\`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until it refills). Past the budget the answer is **429**
\`rate_limited\` with \`Retry-After\` (seconds). Password sign-ins (10 failures per address, 50 per client in 15 minutes)
and sign-ups (20 per client an hour) are limited in the same store, and so are the e-mails a signed-out visitor can
have sent (sign-in links, sign-up confirmations): 5 an hour to one address, 20 an hour for one client, past which
nothing is sent and the answer stays the same.

## Idempotency
Every \`POST\` that creates or starts something (sites, sitemaps, a sitemap refresh, boosts, boost runs, warms) takes an
optional \`Idempotency-Key\` header (1 to 255 visible ASCII characters, e.g. a UUID). The same key with the same request
(operation, path and JSON body) within 24 hours replays the first answer, with \`Idempotent-Replayed: true\`, and creates
nothing. The same key with another request is **422** \`idempotency_conflict\`. A retry that arrives while the first request
is still being handled waits for its answer (**409** \`idempotency_in_progress\` after 15 seconds). Only successful answers
are kept: after a 4xx or 5xx the key may be sent again. Keys are kept in the database, so they hold across servers,
and belong to the API key that sent them (on the dashboard, to the signed-in member): another API key's same
Idempotency-Key is a request of its own, never a replay. Before a stored answer is replayed, every check of the request
runs again (the key, its scope, the member's role, the organization's suspension, and the key's site limit over the site
or boost the path names): a caller the request would refuse gets that refusal, not the answer.
What an answer shows once (a webhook's \`secret\`, a deploy hook's \`url\`) is absent from its replay: the first answer
is the only time it is shown, and the kept answer never holds it.

## Decisions on what the specification leaves open
- **Lists** (\`/v1/sites\`, sitemaps, boosts, runs, warm runs) answer \`{data, total, limit, offset}\`, newest first;
  \`limit\` defaults to ${PAGE_SIZE_DEFAULT} (1 to ${PAGE_SIZE_MAX}), \`offset\` to 0; anything else is 422.
- **Deletes** answer **204** with no body. Deleting a site removes its sitemaps, boosts and runs; deleting a boost removes its runs.
- **Regions**: ${REGIONS.map((r) => `\`${r.code}\` (${r.name})`).join(", ")}; \`uk\` is accepted and stored as \`gb\`.
  Each region's calls leave through an egress: a worker placed for that region (\`worker\`), a proxy in the region
  (\`proxy\`), or the service's own network (\`local\`). \`GET /v1/me\` lists the regions as \`{code, name, egress, shares_egress_with}\`:
  regions that share an egress (every \`local\` region of an install without regional workers or proxies) reach the same
  CDN points of presence, so warming them apart fills one cache, though each region's calls are made and counted
  (URL × variation × region). The estimate says so before a run (\`shared_egress\` and a note). A run's
  \`regions_breakdown[]\` gives the egress most of a region's calls used, the PoPs that answered them (\`pops\`, each placed
  by country and continent from Preheat's table of CDN PoP codes) and \`reached\`: \`in_region\`, \`elsewhere\` (most answers
  came from PoPs outside the region: its visitors' PoPs were not warmed, and the run's \`status_message\` and report say so)
  or \`unknown\`.
- **Sites**: the domain is a host name with an optional port (\`https://\`/\`http://\` and a trailing slash are stripped, case is lowered);
  paths, queries, credentials, IP addresses and invalid names are 422; the same domain twice in one account is 409.
  Validation records the method (\`html_file\`, \`meta_tag\` or \`dns_txt\`) and time. The token file is always checked against a random
  missing file of the same shape: it passes when it answers 200 and that file does not, or when it contains the token and
  that file's page does not repeat its own name; on a site answering 200 for any address and repeating it, only a file whose
  whole content is the token proves ownership. The DNS method needs no request to the site: a TXT record
  \`_preheat-challenge.{domain}\` holding \`preheat-site-verification={validation_token}\` (CNAMEs followed, a record's strings
  joined, any of several records), asked of the operator's resolvers (\`PREHEAT_DNS_SERVERS\`) for at most 5 seconds.
  A validated site's proof is looked for again periodically (\`ownership_recheck\`), by the same three methods (the DNS record
  first for a site it proved, which then receives no request): missing, the
  owner is e-mailed and the site is unvalidated 7 days later unless it is back.
- **Sitemap status**: \`waiting\` → \`processing\` → \`done\` | \`error\`, with \`status_message\` and \`url_count\`.
  A sitemap URL must be on the site's domain or its \`www.\` variant.
  **Fresh lists**: before a boost run is planned, each of its sitemaps last read more than an hour ago (the operator's
  \`PREHEAT_SITEMAP_MAX_AGE_SECONDS\`) is read again with a conditional GET (\`If-None-Match\`/\`If-Modified-Since\`, kept
  for sitemaps that are a single document: an unchanged one costs a 304), so the run warms what it lists now. One that
  cannot be read leaves the run on its last good list, and the run's \`status_message\` says so.
  \`POST /v1/sites/{siteId}/sitemaps/{sitemapId}/refresh\` reads one again on demand (202, the sitemap as it is; one
  already \`waiting\` or \`processing\` is left to that read). \`last_processed_at\` is the last read (a 304 included),
  \`last_changed_at\` the last time its URL list changed.
  **How sitemaps are read**: \`urlset\` and \`sitemapindex\` XML (gzipped or not), RSS and Atom feeds, plain-text sitemaps
  (one URL a line) and a \`robots.txt\` (its \`Sitemap:\` lines followed as children), each decoded in its declared
  encoding (BOM, XML declaration, then the \`Content-Type\` charset; UTF-8 by default). An index's children are read a
  few at a time (4 by default); one that fails (an HTTP error or a timeout after 3 tries, invalid XML, too big) is skipped
  and named in \`status_message\`, the others' URLs are kept, and the sitemap fails only when nothing could be read. A
  document cut off before its closing tags keeps the entries before the cut. Limits: 50,000 entries and 50 MB per
  document, 1,000,000 URLs per sitemap, URLs of at most 2,048 characters (longer ones are skipped and counted).
  These requests, and ownership checks, identify themselves as \`PreheatBot/<version> (+<base url>/bot)\`; warming calls
  send the browser \`User-Agent\` of their class.
- **Boost status**: \`pending\` (created, or resumed, no run finished since) → \`running\` (a run pending or running) →
  \`active\` (the last run ended) | \`paused\` (auto-paused on a high error rate; its schedule stops firing).
  Triggering a run or updating a paused boost resumes it. \`content_types\` values: ${CONTENT_TYPES.map((c) => `\`${c}\``).join(", ")},
  recognised from the URL's extension (no extension counts as \`html\`).
- **Run status**: \`pending\` → \`running\` → \`done\` | \`failed\` | \`paused\`; a pending run may also go straight to \`failed\`
  (for example when the quota cannot cover it). One run per boost, and one warm run per site, may be pending or running at a time (409).
- **Runs**: \`GET /v1/runs\` lists boost runs; on-demand warm runs are listed by \`GET /v1/sites/{siteId}/warm-runs\`.
  \`GET /v1/runs/{runId}\` serves both (\`type\`, with \`boost_id\` and \`boost_name\` null for warm runs).
  Every run carries \`progress\` (\`planned_calls\`, \`completed_calls\`) and a \`summary\` whose \`pops\` is always present (possibly empty).
- **Warming**: one GET per URL × user agent × language × cookie set × encoding × region (no \`variations\`: one desktop call without
  \`Accept-Language\` per region), each class sending its browser's or crawler's current headers, plus the \`request_profile\`, the body read to the end. A call succeeds when
  its final status (after at most 5 redirects) is below 400. Boost runs warm the URLs of the boost's sitemaps (or CSV file)
  under \`url_root\`, without \`exclude_ext\`, of the \`content_types\` asked for, and stop at \`call_limit\`.
  \`variations.languages\` takes at most ${MAX_LANGUAGES} tags (422 beyond). \`cache_hits\` counts answers the CDN served from its cache; \`pops\` maps the CDN's
  point of presence (IATA-style code) to calls.
- **Sites not validated yet**: anyone may register any domain, so until ownership is proven a boost's run warms at most
  the first ${UNVALIDATED_LIMITS.urlsPerRun} URLs with at most ${UNVALIDATED_LIMITS.callsPerRun} calls (the run's \`status_message\` says when a cap cut it), and the site
  runs at most ${UNVALIDATED_LIMITS.runsPerDay} boost runs in 24 hours: one more trigger is **429** with \`Retry-After\`, and a schedule
  skips its ticks until then. Boost objects and the trigger's 202 answer state the caps in \`unvalidated_limits\`
  (null once the site is validated). On-demand warms need a validated site (409).
- **Pace**: a site gets at most \`max_concurrency\` warming calls at once (default PREHEAT_SITE_CONCURRENCY, 4; at most
  PREHEAT_SITE_MAX_CONCURRENCY, 16) and, when set, at most \`max_requests_per_second\` starts per second; both are set with
  \`PATCH /v1/sites/{siteId}\`. The engine slows down on its own when the site does (the median response time of the last 50
  calls over 3 × that of the run's first 50 halves the window; back under 1.5 × adds one call; a 429/503 with Retry-After drops
  it to one call): each change is listed in the run's \`slowdowns\`.
- **Auto-pause**: a boost run stops as \`paused\` when at least 50 % of its last 100 calls failed (after 20 calls), unless
  \`ignore_errors\` is true; the boost becomes \`paused\` and its schedule stops firing until it is triggered or updated.
  A run whose every call failed ends \`failed\`.
- **Quota**: calls per account per calendar month (UTC), ${DEFAULT_MONTHLY_CALL_QUOTA.toLocaleString("en")} by default.
  A run's planned calls (URLs × user agents × languages × regions) are counted when it is queued. A warm that does not fit is 403.
- **Updates**: \`PUT /v1/boosts/{boostId}\`, \`PATCH /v1/boosts/{boostId}\` and \`PATCH /v1/sites/{siteId}/boosts/{boostId}\`
  all change only the supplied fields; \`schedule: null\` and \`call_limit: null\` clear them (so do \`null\` exclude_ext, variations and content_types).
  \`next_run_at\` is recomputed from the schedule (UTC).
- **Events**: \`POST /v1/webhooks\` subscribes a URL to signed events (\`run.completed\`, \`run.failed\`, \`run.paused\`, \`sitemap.processed\`, \`sitemap.failed\`): at most 10 webhooks an account by default, one per receiver URL. Polling the run works too.
`.trim();
