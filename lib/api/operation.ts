import type { z } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import type { ErrorCode } from "@/lib/core/error-codes";
import type { Role } from "@/lib/core/roles";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export type OperationTag = "Account" | "Sites" | "Sitemaps" | "Boosts" | "Warm" | "Changes" | "Traffic" | "Runs" | "Webhooks" | "Hooks" | "Audit";

/**
 * Where an audited change's target id comes from: a path parameter by name (`{ param: "siteId" }`),
 * a field of the JSON answer by dotted path (`{ answer: "id" }`, `{ answer: "api_key.id" }`), or
 * `"actor"`, the signed-in user's own id (their password, their sessions).
 */
export type AuditTargetId = { param: string } | { answer: string } | "actor";

/**
 * The audit-log entry a state-changing operation records (lib/api/audit.ts), declared once on its
 * spec: `/v1` operations (`OperationSpec.audit`, run by `withApiKey` and `withPathToken`) and the
 * dashboard's own routes (`withSession`'s spec) alike. Recorded only after a 2xx answer, never for
 * an idempotent replay; a failure to record is logged and never changes the answer.
 *
 * - `action`: `<target>.<verb>`, past tense (`site.created`, `key.revoked`, `member.invited`).
 * - `target`: the kind of thing changed (`site`, `boost`, `key`, `member`, `invitation`…).
 * - `id`: where the target's id comes from (`AuditTargetId`). By default, the answer's `id` for a
 *   201 answer, otherwise the last path parameter (none: no id).
 * - `changes`: whether to record the names of the top-level body fields the request supplied (never
 *   their values); by default for PATCH and PUT.
 *
 * The actor is who was authenticated: the member's e-mail for a dashboard session, the key's
 * prefix for an API key, the hook's id for a deploy hook.
 */
/** `coalesce`: repeats within an hour count on one entry (lib/accounts/audit.ts), for an operation anyone holding a URL may repeat. */
export type AuditSpec = { action: string; target: string; id?: AuditTargetId; changes?: boolean; coalesce?: boolean };

/**
 * One `/v1` operation, declared once: the handler wrapper (lib/api/handler.ts) authenticates,
 * limits and parses by it, and the OpenAPI document (lib/openapi/document.ts) is generated from it.
 */
export type OperationSpec<P extends z.ZodType | undefined = z.ZodType | undefined, Q extends z.ZodType | undefined = z.ZodType | undefined, B extends z.ZodType | undefined = z.ZodType | undefined> = {
  /** camelCase, unique: what generated clients name the operation. */
  operationId: string;
  method: HttpMethod;
  /** As published, `{name}` for path parameters. */
  path: `/v1${string}`;
  tag: OperationTag;
  summary: string;
  description?: string;
  /** The scope the key must carry; omitted for operations any valid key may call. */
  scope?: Scope;
  /** The role a signed-in member needs; by default (`requiredRole`) a read needs viewer and a change admin. */
  role?: Role;
  params?: P;
  query?: Q;
  body?: B;
  /** `token`: no API key; a secret token in the path is the credential (deploy hooks). */
  auth?: "key" | "token";
  /**
   * The operation concerns the whole organization (registering a site, webhooks, which see every
   * site's events): a key limited to some sites is refused with 403 `site_limited_key`.
   */
  wholeOrganization?: true;
  /** false for operations about the API key itself (GET /v1/me): the dashboard session has none. */
  session?: boolean;
  /** Creates or starts something: an `Idempotency-Key` makes a retry replay the first answer (lib/api/idempotency.ts). */
  idempotent?: boolean;
  status: 200 | 201 | 202 | 204;
  response?: z.ZodType;
  /**
   * The answer's fields shown only in this first answer (a secret, a URL holding one), optional in
   * `response`: an idempotent replay answers without them, and the stored answer never holds them.
   */
  shownOnce?: string[];
  /** The success answer also comes as CSV (`format=csv`). */
  csv?: boolean;
  /** The codes this operation's own domain rules answer; those of authentication, parsing and limits are added by `errorCodesOf`. */
  errors?: ErrorCode[];
  /** An answer whose body is not the Error object, e.g. the validate operation's 422. */
  otherAnswers?: Record<number, { description: string; schema: z.ZodType }>;
  /** Set on every operation that changes state: what the audit log records of it (`AuditSpec`). */
  audit?: AuditSpec;
};

/** Keeps the schemas' own types, so that the handler's params, query and body are typed by them. */
export function defineOperation<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: OperationSpec<P, Q, B>,
): OperationSpec<P, Q, B> {
  return spec;
}

/** The role a dashboard session needs for the operation: its own, or viewer to read and admin to change. */
export function requiredRole(op: Pick<OperationSpec, "role" | "method">): Role {
  return op.role ?? (op.method === "get" ? "viewer" : "admin");
}

/** Every code the operation can answer, in the order of the checks that send them. */
export function errorCodesOf(op: OperationSpec): ErrorCode[] {
  const codes: ErrorCode[] = op.auth === "token" ? [] : ["invalid_api_key"];
  if (op.session !== false && op.auth !== "token") codes.push("session_expired");
  if (op.auth !== "token") codes.push("account_suspended");
  if (op.scope) codes.push("insufficient_scope");
  if (op.wholeOrganization) codes.push("site_limited_key");
  if (op.session !== false && op.auth !== "token") codes.push("insufficient_role");
  codes.push("rate_limited");
  if (op.params) codes.push("invalid_path");
  if (op.body) codes.push("invalid_json", "payload_too_large");
  if (op.params || op.query || op.body) codes.push("validation_failed");
  if (op.idempotent) codes.push("idempotency_conflict", "idempotency_in_progress");
  if (op.params) codes.push("not_found");
  for (const code of op.errors ?? []) if (!codes.includes(code)) codes.push(code);
  codes.push("internal_error");
  return codes;
}
