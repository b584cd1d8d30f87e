import { and, count, desc, eq, inArray, like, lt, sql } from "drizzle-orm";
import { auditEvents } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import type { Database } from "@/lib/db";
import { escapeLike } from "@/lib/db/like";
import { encodedPlaceholder, encodedValue, preparedOnce } from "@/lib/db/prepared";
import type { AuditActorType, AuditEventView, AuditLogFilters } from "./audit-schemas";

const DAY_MS = 86_400_000;

/** Who made a change: the member (by e-mail), the key (by prefix), the deploy hook (by id) or Preheat. */
export type AuditActor = { type: AuditActorType; label: string; userId?: number };

/** One change to record. `changes` holds field names only: never pass a value. */
type AuditEventInput = {
  accountId: number;
  actor: AuditActor;
  /** `<target>.<verb>`: `site.created`, `boost.updated`, `key.revoked`, `member.invited`… */
  action: string;
  targetType: string;
  targetId?: string | number | null;
  changes?: string[];
  clientAddress?: string | null;
};

// Every event writes the same columns: the statement is built once (lib/db/prepared.ts); it runs on every warm request.
const insertAuditEvent = preparedOnce((db) =>
  db
    .insert(auditEvents)
    .values({
      accountId: sql.placeholder("accountId"),
      actorType: sql.placeholder("actorType"),
      actorUserId: sql.placeholder("actorUserId"),
      actor: sql.placeholder("actor"),
      action: sql.placeholder("action"),
      targetType: sql.placeholder("targetType"),
      targetId: sql.placeholder("targetId"),
      changes: encodedPlaceholder("changes", auditEvents.changes),
      clientAddress: sql.placeholder("clientAddress"),
    })
    .prepare("insert_audit_event"),
);

/** Writes one event. Events are never updated; they go when older than PREHEAT_AUDIT_RETENTION_DAYS. */
export async function recordAuditEvent(db: Database, event: AuditEventInput): Promise<void> {
  await insertAuditEvent(db).execute({
    accountId: event.accountId,
    actorType: event.actor.type,
    actorUserId: event.actor.userId ?? null,
    actor: event.actor.label,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId === undefined || event.targetId === null ? null : String(event.targetId),
    changes: encodedValue(auditEvents.changes, event.changes?.length ? event.changes : null),
    clientAddress: event.clientAddress || null,
  });
}

type Row = typeof auditEvents.$inferSelect;

function toAuditEventView(row: Row): AuditEventView {
  return {
    id: row.id,
    action: row.action,
    actor: { type: row.actorType as AuditActorType, label: row.actor, ...(row.actorUserId !== null && { user_id: row.actorUserId }) },
    target: { type: row.targetType, id: row.targetId },
    changes: row.changes ?? [],
    client_address: row.clientAddress,
    created_at: iso(row.createdAt)!,
  };
}

/** `site.` and `site.*` name every action on sites; anything else, one action. */
function actionCondition(action: string) {
  const prefix = action.endsWith(".*") ? action.slice(0, -1) : action.endsWith(".") ? action : undefined;
  if (prefix === undefined) return eq(auditEvents.action, action);
  // Actions are lower-case words, digits, _ and dots (the query's schema): escape _ for LIKE.
  return like(auditEvents.action, `${escapeLike(prefix)}%`);
}

/**
 * The organization's events, newest first, filtered: `actor` is an e-mail address (compared without
 * case) or a key prefix, exactly; `action` one action or a prefix (`site.`, `site.*`); target type
 * and id exactly.
 */
export async function listAuditEvents(ctx: AccountContext, filters: AuditLogFilters, page: Page): Promise<{ data: AuditEventView[]; total: number }> {
  const where = and(
    eq(auditEvents.accountId, ctx.accountId),
    // A key limited to some sites sees only the events on those sites.
    ctx.siteIds ? and(eq(auditEvents.targetType, "site"), inArray(auditEvents.targetId, ctx.siteIds.map(String))) : undefined,
    filters.actor === undefined ? undefined : filters.actor.includes("@") ? eq(sql`lower(${auditEvents.actor})`, filters.actor.toLowerCase()) : eq(auditEvents.actor, filters.actor),
    filters.action === undefined ? undefined : actionCondition(filters.action),
    filters.targetType === undefined ? undefined : eq(auditEvents.targetType, filters.targetType),
    filters.targetId === undefined ? undefined : eq(auditEvents.targetId, filters.targetId),
  );
  const rows = await ctx.db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.id)).limit(page.limit).offset(page.offset);
  const [counted] = await ctx.db.select({ n: count() }).from(auditEvents).where(where);
  return { data: rows.map(toAuditEventView), total: counted?.n ?? 0 };
}

/** Deletes the events older than PREHEAT_AUDIT_RETENTION_DAYS before `now` (the worker's periodic sweep); answers how many went. */
export async function pruneAuditEvents(db: Database, now = new Date(), retentionDays = setting("PREHEAT_AUDIT_RETENTION_DAYS")): Promise<number> {
  const removed = await db
    .delete(auditEvents)
    .where(lt(auditEvents.createdAt, new Date(now.getTime() - retentionDays * DAY_MS)))
    .returning({ id: auditEvents.id });
  return removed.length;
}
