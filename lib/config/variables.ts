import type { z } from "zod";
import { REGIONS, type RegionCode } from "@/lib/core/regions";
import { boolean, emailSender, httpUrl, inngestDev, type Kind, numeric, oneOf, parsedBy, postgresUrl, text, token } from "./kinds";
import { type ConnectTarget, parseConnectTo, parseDnsServers, parseRegionList, parseSecretsKey, parseTrustedProxies, type ProxyRange } from "./parsers";

/**
 * Every environment variable Preheat reads, in one place: how its text is read (a zod schema from
 * the string), its default, and one sentence for operators. `npm run config:docs` writes the table
 * of docs/guide/operators/configuration.md from this list.
 *
 * An unset or empty (blank) variable takes its default; any other value must be valid, or reading
 * it throws a ConfigError (and the server, worker and CLI refuse to start).
 */
export type Declared<T, Value> = {
  /** From the variable's text (never empty) to its value. */
  schema: z.ZodType<T, string>;
  /** What the schema accepts, in words: for error messages and the table. */
  accepts: string;
  /** The value when the variable is unset or blank. */
  default: Value;
  /** The default as the table shows it. */
  defaultText: string;
  /** One sentence for operators. */
  description: string;
  /** Never printed (error messages say "value hidden"). */
  secret: boolean;
  /** The value is a URL that may hold a password: printed with the password masked. */
  urlWithPassword: boolean;
  /** The table's row for a family of variables (PREHEAT_REGION_PROXY_<CODE>): one row for all of them. */
  row?: string;
};

type Doc = { description: string; defaultText?: string; secret?: boolean; urlWithPassword?: boolean; row?: string };

function shown(value: unknown): string {
  return `\`${String(value)}\``;
}

/** A variable with a default value. */
function withDefault<T>(kind: Kind<T>, fallback: T, doc: Doc): Declared<T, T> {
  return {
    schema: kind.schema,
    accepts: kind.accepts,
    default: fallback,
    defaultText: doc.defaultText ?? shown(fallback),
    description: doc.description,
    secret: doc.secret ?? false,
    urlWithPassword: doc.urlWithPassword ?? false,
    row: doc.row,
  };
}

/** A variable that may stay unset (its reader decides what unset means). */
function optional<T>(kind: Kind<T>, doc: Doc): Declared<T, T | undefined> {
  return {
    schema: kind.schema,
    accepts: kind.accepts,
    default: undefined,
    defaultText: doc.defaultText ?? "unset",
    description: doc.description,
    secret: doc.secret ?? false,
    urlWithPassword: doc.urlWithPassword ?? false,
    row: doc.row,
  };
}

const positiveInteger = numeric({ integer: true, min: 1 });
const NO_PROXIES: ProxyRange[] = [];
const NO_REGIONS: RegionCode[] = [];
const NO_CONNECT_TO: ReadonlyMap<string, ConnectTarget> = new Map();
const SYSTEM_RESOLVERS: string[] = [];

export type RegionProxyVariable = `PREHEAT_REGION_PROXY_${Uppercase<RegionCode>}`;

/** PREHEAT_REGION_PROXY_<CODE>: one variable per region, one row in the table. */
const regionProxies = Object.fromEntries(
  REGIONS.map((region) => [
    `PREHEAT_REGION_PROXY_${region.code.toUpperCase()}`,
    optional(httpUrl(), {
      row: "PREHEAT_REGION_PROXY_<CODE>",
      urlWithPassword: true,
      description: `HTTP(S) proxy through which a region's calls leave (e.g. \`PREHEAT_REGION_PROXY_US\`; codes: ${REGIONS.map((r) => r.code.toUpperCase()).join(", ")}); unset, they leave from the worker's own network.`,
    }),
  ]),
) as Record<RegionProxyVariable, Declared<string, string | undefined>>;

export const VARIABLES = {
  // The server.
  PORT: withDefault(numeric({ integer: true, min: 1, max: 65535 }), 3000, {
    description: "HTTP port of `npm start` / `quickstart` (Next.js reads it too), and of the default `PREHEAT_BASE_URL`.",
  }),
  PREHEAT_BASE_URL: optional(httpUrl({ trimSlashes: true }), {
    defaultText: "`http://localhost:$PORT`",
    description: "Public address used in e-mails, sign-in links and redirects.",
  }),
  NEXTAUTH_URL: optional(httpUrl(), {
    defaultText: "`PREHEAT_BASE_URL`",
    description: "The address next-auth builds its sign-in callbacks on; set it only when it must differ from `PREHEAT_BASE_URL`.",
  }),
  NEXTAUTH_SECRET: optional(text(), {
    secret: true,
    defaultText: "generated",
    description: "Secret that signs sessions and sign-in links; unset, one is generated on first use and kept in the database, so every server on it shares it.",
  }),
  AUTH_SECRET: optional(text(), {
    secret: true,
    description: "Used as `NEXTAUTH_SECRET` when that is unset.",
  }),
  PREHEAT_TRUSTED_PROXIES: withDefault(parsedBy(parseTrustedProxies, "IP addresses or CIDR ranges, comma separated"), NO_PROXIES, {
    defaultText: "unset",
    description: "The proxies in front of the server (nginx, a load balancer): for per-client limits, `X-Forwarded-For` is read past them only; unset, the peer's address counts.",
  }),

  PREHEAT_SECRETS_KEY: optional(parsedBy(parseSecretsKey, "32 bytes as 64 hexadecimal digits or base64"), {
    secret: true,
    description:
      "The key (AES-256-GCM) that encrypts the secrets Preheat must use again: two-factor sign-in secrets, request profiles' Basic auth passwords, change receivers' secrets, traffic sources' keys (Plausible, GA4) and the bot's signing keys (`openssl rand -hex 32`). On the embedded database, unset, the install makes its own on first start (`secrets.key` in PREHEAT_DATA_DIR, readable by its owner only). On a PostgreSQL server every server and worker must be given the same one: unset, such fields are refused with 422, two-factor cannot be turned on and calls are not signed, and the start says so. Changing it makes the stored ones unreadable: set them again.",
  }),

  // The database.
  PREHEAT_DATA_DIR: withDefault(text("a directory"), ".data", {
    description: "Where the embedded database lives. One process owns it (`preheat.lock`); the CLI reaches that process over `preheat.sock`.",
  }),
  DATABASE_URL: optional(postgresUrl(), {
    secret: true,
    description: "A PostgreSQL server (`postgres://user:pass@host:5432/db`) instead of the embedded database; same migrations, applied at start-up.",
  }),
  DATABASE_POOL_SIZE: withDefault(positiveInteger, 10, {
    description: "Connections per process with `DATABASE_URL`.",
  }),

  // Accounts and the API.
  PREHEAT_MONTHLY_CALL_QUOTA: withDefault(positiveInteger, 100_000, {
    description: "Warming calls per account per calendar month (UTC), for accounts without a quota of their own.",
  }),
  PREHEAT_RATE_LIMIT_PER_MINUTE: withDefault(positiveInteger, 600, {
    description:
      "API requests each key (or signed-in account, or client address without a valid key) may make per minute: counted in the database across servers with `DATABASE_URL`, in the server's memory on the embedded database (which one process owns).",
  }),

  // E-mail.
  RESEND_API_KEY: optional(text(), {
    secret: true,
    description: "Resend API key: e-mails (sign-in links, reports) are sent through Resend; unset, none is sent and they stay in the outbox (`npm run cli -- emails`).",
  }),
  RESEND_BASE_URL: optional(httpUrl({ trimSlashes: true }), {
    defaultText: "Resend's API",
    description: "Another address for the Resend API (a relay, or a stand-in for tests).",
  }),
  EMAIL_FROM: withDefault(emailSender(), "Preheat <reports@preheat.localhost>", {
    description: "Sender of every e-mail.",
  }),

  // Background work.
  PREHEAT_EMBEDDED_WORKER: withDefault(boolean(), true, {
    description: "`false`: the server only queues jobs, and `npm run worker` processes work them (with `DATABASE_URL`, any number of them, on any machine).",
  }),
  PREHEAT_WORKER_REGIONS: withDefault(parsedBy(parseRegionList, `region codes, comma separated (${REGIONS.map((r) => r.code).join(", ")})`), NO_REGIONS, {
    defaultText: "unset",
    description: "For `npm run worker` only, like `--regions`: the regions whose calls this worker takes (e.g. `de,fr`); unset, every region that has no regional worker.",
  }),
  PREHEAT_WORKER_NICE: withDefault(numeric({ integer: true, min: 0, max: 19 }), 10, {
    description:
      "For `npm run worker` only: the scheduling priority (nice, 0 to 19) its thread lowers itself to, so that on a machine it shares with a web server (and the database) the API's requests get the CPU first and the warming takes what they leave: while 1,000 warms arrived on 2 cores, a quarter more warms were accepted a second and the runs ended sooner, each run's first call about 0.3 s later (`docs/benchmarks.md`). `0` keeps the worker at its start priority. A priority already lower (systemd's `Nice=`) is kept.",
  }),
  PREHEAT_JOB_CONCURRENCY: withDefault(numeric({ integer: true, min: 1, max: 64 }), 4, {
    description: "Sitemap and e-mail jobs one worker process works at once (one per fetch); runs are not limited by it (see `PREHEAT_WORKER_MAX_IN_FLIGHT`).",
  }),
  PREHEAT_RUNS_PER_FETCH: withDefault(positiveInteger, 250, {
    description:
      "Warming jobs (one region of a run each) one fetch of the job queue takes at most; planning takes up to 1,000 runs at a time (on-demand warms stored together, boost runs four at a time, as their sources are read then).",
  }),
  PREHEAT_WORKER_MAX_IN_FLIGHT: withDefault(positiveInteger, 2000, {
    description: "Warming calls one worker process keeps in flight across every run it holds (2,000 measured on 2 cores, `docs/benchmarks.md`); it also holds at most this many run regions at once.",
  }),
  PREHEAT_SITE_SLOT_TTL_SECONDS: withDefault(numeric({ above: 0 }), 10, {
    description:
      "How long a worker's share of a site's concurrency lasts without renewal (renewed every second). A worker whose renewal is late sends nothing new to the site; a dead or stalled worker's share goes back to the others after this plus 30 s, the longest a call it sent may last.",
  }),
  PREHEAT_JOB_EXPIRE_SECONDS: optional(numeric({ integer: true, min: 1, max: 86_399 }), {
    defaultText: "per job (15 min; 2 min for e-mails)",
    description: "How long a job may run before it counts as lost (its worker died) and is retried.",
  }),
  PREHEAT_JOB_RETRY_DELAY_SECONDS: optional(positiveInteger, {
    defaultText: "per job (15 s; 30 s for e-mails)",
    description: "First retry delay of a failed job; later ones back off exponentially (4 retries at most, 5 for e-mails).",
  }),
  PREHEAT_WEBHOOK_RETRY_BASE_SECONDS: withDefault(positiveInteger, 60, {
    description:
      "First retry delay of a webhook delivery that failed (no 2xx answer); each later one doubles it, with jitter, until about a day has passed (10 retries at the default, 17 to 34 hours). Tests shorten it. With Inngest instead of the workers, Inngest's own back-off applies (at most 20 retries).",
  }),
  PREHEAT_WEBHOOK_DISABLE_AFTER: withDefault(positiveInteger, 15, {
    description: "Consecutive failed delivery attempts, over any of its events, after which a webhook is disabled and its account's owner is told by e-mail. A success resets the count.",
  }),
  PREHEAT_OWNERSHIP_RECHECK_DAYS: withDefault(positiveInteger, 30, {
    description:
      "Days between two checks that a validated site still carries its ownership proof. A site whose proof is gone is checked daily, its owner is e-mailed, and it is unvalidated 7 days later unless the proof is back.",
  }),
  PREHEAT_AUDIT_RETENTION_DAYS: withDefault(positiveInteger, 365, {
    description: "Days an audit-log event is kept (GET /v1/audit-log, the dashboard's Audit page); older events are deleted by the workers' periodic sweep.",
  }),
  PREHEAT_WEBHOOKS_PER_ACCOUNT: withDefault(positiveInteger, 10, {
    description: "Webhooks one account may have (403 `webhook_limit` beyond): with one webhook per URL, this bounds the deliveries one event can send towards any receiver.",
  }),
  PREHEAT_JOBS_POLL_SECONDS: withDefault(numeric({ min: 0.5 }), 1, {
    description: "How often an idle worker looks for jobs. On a PostgreSQL server, workers are also told of queued runs at once (LISTEN/NOTIFY on the channel preheat_jobs).",
  }),
  PREHEAT_JOBS_MAINTENANCE_SECONDS: withDefault(numeric({ min: 1, below: 86_400 }), 60, {
    description: "How often the embedded queue (pg-boss) does its maintenance: lost jobs expired, finished ones archived.",
  }),
  INNGEST_EVENT_KEY: optional(text(), {
    secret: true,
    description: "Send background work to Inngest Cloud instead of the embedded queue (with `INNGEST_SIGNING_KEY`).",
  }),
  INNGEST_SIGNING_KEY: optional(text(), {
    secret: true,
    description: "The key with which Inngest Cloud signs its calls to `/api/inngest` (read by the Inngest SDK).",
  }),
  INNGEST_DEV: optional(inngestDev(), {
    description:
      "Send background work to an Inngest dev or self-hosted server instead of the embedded queue (`1`, or its URL); any value selects Inngest (`0` or `false`: Inngest Cloud, which needs `INNGEST_EVENT_KEY`).",
  }),
  INNGEST_BASE_URL: optional(httpUrl(), {
    description: "Address of a self-hosted Inngest server (read by the Inngest SDK).",
  }),

  // Warming.
  PREHEAT_SITE_CONCURRENCY: withDefault(positiveInteger, 4, {
    description: "Warming calls made at once to a site that has not set its own `max_concurrency` (never more than `PREHEAT_SITE_MAX_CONCURRENCY`).",
  }),
  PREHEAT_SITE_MAX_CONCURRENCY: withDefault(positiveInteger, 16, {
    description: "The most a site may set as its `max_concurrency` (422 above it).",
  }),
  PREHEAT_VERIFY_DELAY_SECONDS: withDefault(numeric({ above: 0 }), 5, {
    description: 'With `verify`, how long after a run\'s calls its cacheable misses are asked again, or its visitor check (`verify: "visitors"`) starts.',
  }),
  PREHEAT_CHANGE_DELAY_SECONDS: withDefault(numeric({ integer: true, min: 0, max: 3600 }), 30, {
    description:
      "How long changed URLs (POST /v1/sites/{siteId}/changes, the change receivers) wait before they are warmed, unless a request names its own `delay_seconds`: CDNs and origins need a moment after a purge. Changes arriving meanwhile join the same warm.",
  }),
  PREHEAT_TRAFFIC_UPLOAD_MAX_BYTES: withDefault(numeric({ integer: true, min: 1024 }), 1024 ** 3, {
    description:
      "The largest access log a traffic source takes, uploaded (POST /v1/sites/{siteId}/traffic-sources/{sourceId}/upload, 413 beyond) or fetched from its URL, counted as sent (a gzip file by its compressed size when uploaded, decoded when fetched). A log is read as it streams in, in a bounded memory whatever its size.",
  }),
  PREHEAT_KEEP_WARM_SLACK_SECONDS: withDefault(numeric({ min: 1, max: 60 }), 2, {
    description:
      "With `keep_warm`, how late after a page's `fresh_until` its re-warm may land: it is aimed half of this after the expiry (never while the page is still fresh), and the scheduler claims what is due every second.",
  }),
  PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS: withDefault(numeric({ integer: true, min: 1 }), 60, {
    description: "With `keep_warm`, the shortest time between two re-warms of one URL × variant × region: pages with a shorter shared-cache lifetime are not chased (the boost page lists them).",
  }),
  PREHEAT_KEEP_WARM_WINDOW_MINUTES: withDefault(numeric({ integer: true, min: 1, max: 1440 }), 60, {
    description: "With `keep_warm`, how long one keep-warm run of a boost gathers its re-warms before it ends and the next one opens: one run per boost per window.",
  }),
  PREHEAT_VISITOR_CHECK_URLS: withDefault(numeric({ integer: true, min: 1, max: 100 }), 20, {
    description:
      'With `verify: "visitors"`, the URLs per region a visitor check asks as each standard visitor (fewer when the run has cookie sets, so that a region\'s check never exceeds 500 requests).',
  }),
  // The beacon (field data, docs/guide/site-owners/beacon.md).
  PREHEAT_BEACON_SAMPLE: withDefault(numeric({ min: 0, max: 1 }), 1, {
    description:
      "The share of the beacon's page views (POST /b) that are counted, drawn by the server once a view has passed every check: 1 counts every view, 0.1 one in ten. `GET /v1/sites/{siteId}/field` answers the rate beside its figures; ratios and percentiles need no correction, view counts are divided by it.",
  }),
  PREHEAT_BEACON_PER_CLIENT_PER_MINUTE: withDefault(positiveInteger, 120, {
    description: "Page views the beacon accepts from one client address per minute, whatever its site (429 beyond). The address is only hashed for the count, never stored or logged.",
  }),
  PREHEAT_BEACON_PER_SITE_PER_MINUTE: withDefault(positiveInteger, 6000, {
    description: "Page views counted per site per minute, after sampling (429 beyond): lower `PREHEAT_BEACON_SAMPLE` for a site busier than this.",
  }),
  PREHEAT_RUN_RESULTS_MAX: withDefault(positiveInteger, 100_000, {
    description: "Calls stored row by row per run (the first ones, hits included) for `GET /v1/runs/{runId}/results` and its CSV (the summary keeps counting past it).",
  }),
  PREHEAT_SITEMAP_CHILDREN_AT_ONCE: withDefault(numeric({ integer: true, min: 1, max: 16 }), 4, {
    description: "Child sitemaps of an index read at the same time.",
  }),
  PREHEAT_SITEMAP_MAX_AGE_SECONDS: withDefault(numeric({ min: 0 }), 3600, {
    description: "Before a boost run is planned, each of its sitemaps read longer ago than this is read again (conditional GET); `0`: before every run.",
  }),

  PREHEAT_BOT_SIGNATURES: withDefault(boolean(), false, {
    description:
      "`true` signs every warming call with HTTP Message Signatures as Web Bot Auth defines them (Ed25519; keys served at `/.well-known/http-message-signatures-directory`, rotated with `cli -- bot-keys rotate`); needs `PREHEAT_SECRETS_KEY`.",
  }),

  // Traffic sources: the analytics APIs a site's page popularity is read from.
  PREHEAT_PLAUSIBLE_BASE_URL: withDefault(httpUrl({ trimSlashes: true }), "https://plausible.io", {
    description:
      "Where Plausible traffic sources are read (Stats API v2, `POST <base>/api/v2/query`): a self-hosted Plausible Community Edition, or a stand-in for tests. It is reached through the address guard like any outbound request.",
  }),
  PREHEAT_GA4_BASE_URL: withDefault(httpUrl({ trimSlashes: true }), "https://analyticsdata.googleapis.com", {
    description: "Where Google Analytics 4 traffic sources are read (Data API, `POST <base>/v1beta/properties/<id>:runReport`); another address is for tests.",
  }),
  PREHEAT_GOOGLE_TOKEN_URL: withDefault(httpUrl(), "https://oauth2.googleapis.com/token", {
    description:
      "The OAuth 2.0 token endpoint a Google Analytics 4 source's service account signs in at (a JWT signed with its key). The key file's own `token_uri` is never used, so that a key cannot send Preheat elsewhere.",
  }),

  // The network.
  PREHEAT_ALLOW_PRIVATE_NETWORK: withDefault(boolean(), false, {
    description: "`true` lets outbound requests reach loopback and private addresses (tests, local development).",
  }),
  PREHEAT_CONNECT_TO: withDefault(parsedBy<ReadonlyMap<string, ConnectTarget>>(parseConnectTo, "`host:port:address:port` entries, comma separated"), NO_CONNECT_TO, {
    defaultText: "unset",
    description:
      "curl `--connect-to` style overrides (empty host or port = any), e.g. `shop.test:80:127.0.0.1:8080`; the addresses named here are trusted by the address guard, redirects elsewhere are still checked.",
  }),
  PREHEAT_DNS_SERVERS: withDefault(parsedBy(parseDnsServers, "IP addresses with an optional port (`address`, `address:port`, `[IPv6]:port`), comma separated"), SYSTEM_RESOLVERS, {
    defaultText: "the system's resolvers",
    description:
      "The DNS resolvers asked for a site's `_preheat-challenge` TXT record (the DNS ownership proof), e.g. `1.1.1.1,8.8.8.8`; unset, those of `/etc/resolv.conf`. They must resolve public names (recursive resolvers), and they are asked only for that record.",
  }),
  ...regionProxies,

  // The CLI's integrator commands (warm, boosts run, runs get), which reach a Preheat over its API.
  PREHEAT_API_URL: optional(httpUrl({ trimSlashes: true }), {
    description: "Base address of the Preheat whose API the CLI's integrator commands call, without `/v1` (e.g. `https://preheat.example.com`); only they read it.",
  }),
  PREHEAT_API_KEY: optional(token(), {
    secret: true,
    description:
      "The API key (`phk_…`) the CLI's integrator commands send as `Authorization: Bearer`; `warm` and `boosts run` need the scopes `boosts:write` and `runs:read` (and `sites:read` to name a site by its domain).",
  }),

  // Observability.
  PREHEAT_LOG_LEVEL: withDefault(oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const), "info", {
    description: "The least severe log lines written (`silent`: none).",
  }),
  PREHEAT_WORKER_METRICS_PORT: optional(numeric({ integer: true, min: 1, max: 65535 }), {
    description:
      "When set, `npm run worker` serves its own `GET /metrics` (the warming calls it makes, its jobs) on this port, on every interface, behind `PREHEAT_METRICS_TOKEN` like the web servers'.",
  }),
  PREHEAT_METRICS_TOKEN: optional(token(), {
    secret: true,
    description: "When set, `GET /metrics` needs `Authorization: Bearer <token>`; unset, it is open.",
  }),
};

type Variables = typeof VARIABLES;
export type VariableName = keyof Variables;
/** What `setting(name)` answers: the parsed value, or undefined for an unset variable without a default. */
export type SettingValue<N extends VariableName> = Variables[N]["default"];
