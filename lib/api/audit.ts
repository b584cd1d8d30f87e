import { type AuditActor, recordAuditEvent } from "@/lib/accounts/audit";
import { clientAddress } from "@/lib/auth/client-address";
import type { Database } from "@/lib/db";
import { logger } from "@/lib/observability/log";
import { REPLAYED_HEADER } from "./idempotency";
import type { AuditSpec, AuditTargetId } from "./operation";

/** What the request was, as the audit entry needs it (lib/api/operation.ts `AuditSpec`). */
export type AuditedRequest = {
  db: Database;
  accountId: number;
  actor: AuditActor;
  request: Request;
  /** The path parameters as sent. */
  params: Record<string, string | string[]>;
  /** The published path (`/v1/sites/{siteId}`): its last parameter is the default target. Otherwise the last of `params`. */
  path?: string;
  /** The body as sent (for the names of the fields it supplied), and as parsed (to keep only those the schema knows). */
  bodyText: string;
  body: unknown;
  requestId?: string;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Who a /v1 or dashboard request is: the signed-in member by e-mail, or the API key by prefix. */
export function actorOf(principal: { prefix: string; user?: { userId: number; email: string } }): AuditActor {
  return principal.user ? { type: "user", label: principal.user.email, userId: principal.user.userId } : { type: "key", label: principal.prefix };
}

async function targetIdOf(how: AuditTargetId | undefined, response: Response, audited: AuditedRequest): Promise<string | null> {
  const chosen = how ?? (response.status === 201 ? { answer: "id" } : undefined);
  if (chosen === "actor") return audited.actor.userId === undefined ? null : String(audited.actor.userId);
  if (chosen && "answer" in chosen) {
    let value: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    for (const name of chosen.answer.split(".")) value = isObject(value) ? value[name] : undefined;
    return typeof value === "string" || typeof value === "number" ? String(value) : null;
  }
  const name = chosen?.param ?? (audited.path ? [...audited.path.matchAll(/\{(\w+)\}/g)].at(-1)?.[1] : Object.keys(audited.params).at(-1));
  const value = name === undefined ? undefined : audited.params[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join("/") : value;
}

/** The names of the top-level fields the request supplied and its schema kept: never their values. */
function suppliedFields(audited: AuditedRequest): string[] {
  let sent: unknown;
  try {
    sent = audited.bodyText.trim() ? JSON.parse(audited.bodyText) : undefined;
  } catch {
    return [];
  }
  if (!isObject(sent)) return [];
  const kept = isObject(audited.body) ? audited.body : undefined;
  return Object.keys(sent).filter((name) => !kept || name in kept);
}

/**
 * Records the audit entry `spec` declares for the request, when its answer is a success that did
 * something: a 2xx that is not an idempotent replay. A failure to record is logged and never
 * changes the answer (the change is done by then).
 */
export async function recordAudited(spec: AuditSpec | undefined, response: Response, audited: AuditedRequest): Promise<void> {
  if (!spec || response.status < 200 || response.status >= 300 || response.headers.get(REPLAYED_HEADER)) return;
  try {
    const method = audited.request.method.toUpperCase();
    const changes = (spec.changes ?? (method === "PATCH" || method === "PUT")) ? suppliedFields(audited) : [];
    await recordAuditEvent(audited.db, {
      accountId: audited.accountId,
      actor: audited.actor,
      action: spec.action,
      targetType: spec.target,
      targetId: await targetIdOf(spec.id, response, audited),
      changes,
      clientAddress: clientAddress(audited.request.headers),
      coalesce: spec.coalesce,
    });
  } catch (error) {
    logger().error({ request_id: audited.requestId, action: spec.action, err: error }, "audit event not recorded");
  }
}
