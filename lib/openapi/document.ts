import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "@/lib/core/error-codes";
import { IDEMPOTENCY_KEEP_HOURS } from "@/lib/api/idempotency";
import { errorCodesOf, type OperationSpec, type OperationTag, requiredRole } from "@/lib/api/operation";
import { operations } from "@/lib/api/operations";
import { errorSchema } from "@/lib/core/primitives";
import { SCOPE_MEANINGS, SCOPES } from "@/lib/auth/scopes";
import { API_DESCRIPTION } from "./description";

export { operations };

const TAGS: { name: OperationTag; description: string }[] = [
  { name: "Account", description: "Who the key belongs to." },
  { name: "Sites", description: "Domains and their ownership validation." },
  { name: "Sitemaps", description: "XML sitemaps, sitemap indexes and RSS/Atom feeds of a site." },
  { name: "Boosts", description: "Warming campaigns, on demand or on a cron schedule (UTC)." },
  { name: "Hooks", description: "Deploy hooks: secret URLs that start a boost, for CI, a CMS or a purge." },
  { name: "Warm", description: "On-demand warming of a list of URLs." },
  {
    name: "Changes",
    description:
      "Pages changed on a site, warmed seconds later ahead of its other runs: sent through the API, or by the systems the site is edited in to a change receiver (checked by that system's own signature, mapped to the site's URLs by its templates).",
  },
  {
    name: "Traffic",
    description:
      "Where a site's visits come from (access logs, Plausible, Google Analytics 4, the beacon) and the popularity table they make: what `url_order: traffic`, call limits and keep-warm budgets spend on first. The beacon's field data gives the hit ratio real visitors get.",
  },
  { name: "Runs", description: "Executions of boosts and warms, with statistics." },
  { name: "Webhooks", description: "Events sent to your systems (signed per Standard Webhooks) or to Slack." },
  { name: "Audit", description: "Who changed what, when and from where, in the organization." },
];

const header = (description: string, schema: Record<string, unknown> = { type: "integer" }) => ({ description, schema });

/** What every answer carries, errors included. */
const commonHeaders = {
  "X-Request-Id": header("The request's id: the one sent when it is 1 to 128 letters, digits, `-`, `_` or `.`, otherwise a new one. Logs name it.", { type: "string" }),
  "RateLimit-Limit": header("Requests the key (or signed-in account) may make per minute."),
  "RateLimit-Remaining": header("Requests left in the current minute."),
  "RateLimit-Reset": header("Seconds until the budget refills."),
};

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description: `Makes a retry safe: the same key with the same request within ${IDEMPOTENCY_KEEP_HOURS} hours replays the first successful answer (with \`Idempotent-Replayed: true\`) and creates nothing. Per API key (on the dashboard, per member), with every check of the request run before a replay. 1 to 255 visible ASCII characters, e.g. a UUID.`,
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};

/** Groups the operation's error codes by status, each answer listing its codes. */
function errorAnswers(op: OperationSpec): RouteConfig["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  const answers: RouteConfig["responses"] = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const other = op.otherAnswers?.[status];
    const schema = other ? z.union([other.schema, errorSchema]) : errorSchema;
    answers[status] = {
      description: [other?.description, codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].meaning}`).join(" ")].filter(Boolean).join(" "),
      headers: status === 429 ? { ...commonHeaders, "Retry-After": header("Seconds to wait before trying again.") } : commonHeaders,
      content: { "application/json": { schema } },
    };
  }
  return answers;
}

const WHOLE_ORGANIZATION_NOTE = "About the whole organization: a key limited to some sites (`site_ids`) is refused with **403** `site_limited_key`.";

function routeOf(op: OperationSpec): RouteConfig {
  const successHeaders = op.idempotent
    ? { ...commonHeaders, "Idempotent-Replayed": header("`true` when this is the replay of an earlier request's answer (same Idempotency-Key).", { type: "string", enum: ["true"] }) }
    : commonHeaders;
  const shownOnce = op.shownOnce?.map((field) => `\`${field}\``).join(", ");
  const success = op.response
    ? {
        description: shownOnce
          ? `Success. ${shownOnce} is shown in this answer only: an idempotent replay (\`Idempotent-Replayed: true\`) answers the same without it, and the kept answer never holds it.`
          : "Success.",
        headers: successHeaders,
        content: {
          "application/json": { schema: op.response },
          ...(op.csv ? { "text/csv": { schema: { type: "string", description: "The same rows as CSV, a header row first." } } } : {}),
        },
      }
    : { description: "Done; no content.", headers: successHeaders };
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [
      op.description,
      op.auth === "token" ? "No key: the secret token in the path is the credential." : op.scope ? `Scope: \`${op.scope}\`.` : "Any valid key.",
      op.auth !== "token" && op.session !== false ? `Role (dashboard session): \`${requiredRole(op)}\` or above.` : undefined,
      op.wholeOrganization ? WHOLE_ORGANIZATION_NOTE : undefined,
    ]
      .filter(Boolean)
      .join("\n\n"),
    // The scope is named in x-required-scope: OpenAPI reserves the requirement's list for OAuth scopes.
    security: op.auth === "token" ? [] : [{ bearerAuth: [] }],
    ...(op.idempotent ? { parameters: [idempotencyKeyParameter] } : {}),
    request: {
      ...(op.params ? { params: op.params as z.ZodObject } : {}),
      ...(op.query ? { query: op.query as z.ZodObject } : {}),
      ...(op.body ? { body: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    },
    responses: { [op.status]: success, ...errorAnswers(op) },
    ...(op.scope ? { "x-required-scope": op.scope } : {}),
    ...(op.auth !== "token" && op.session !== false ? { "x-required-role": requiredRole(op) } : {}),
  } as RouteConfig;
}

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

export function openApiDocument() {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: `An API key (\`phk_…\`) carrying scopes; each operation names the one it needs. A key may be limited to some sites of the organization (\`site_ids\`, shown by GET /v1/me): it sees only them and their sitemaps, boosts, hooks and runs (any other id answers 404, lists leave the others out), and the operations about the whole organization answer it 403 \`site_limited_key\`. ${SCOPES.map((scope) => `\`${scope}\`: ${SCOPE_MEANINGS[scope]}`).join(" ")}`,
    "x-scopes": SCOPE_MEANINGS,
  } as never);
  for (const op of operations) registry.registerPath(routeOf(op));
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Preheat API",
      version: "1.0.0",
      description: API_DESCRIPTION,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "The operator of this Preheat service" },
    },
    servers: [{ url: "/", description: "This server; every path begins with /v1." }],
    tags: TAGS,
  });
  return cached;
}
