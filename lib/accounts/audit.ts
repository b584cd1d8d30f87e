import { and, count, desc, eq, gt, inArray, like, lt, sql } from "drizzle-orm";
import { auditEvents } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import type { Page } from "@/lib/core/pagination";
import { iso } from "@/lib/core/primitives";
import type { Database } from "@/lib/db";
import { escapeLike } from "@/lib/db/like";
import { executePrepared } from "@/lib/db/prepared";
import { gatheredPerDatabase } from "@/lib/db/gathered";
import type { AuditActorType, AuditEventView, AuditLogFilters } from "./audit-schemas";
import { type TargetNow, targetsNow } from "./audit-targets";

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
  /**
   * The same action by the same actor on the same target within an hour of an entry counts on that
   * entry (`count`) instead of adding one: a deploy hook's calls, which anyone holding its URL can
   * repeat, so that they cannot grow the log without bound.
   */
  coalesce?: boolean;
};

/** How long an entry takes repeats of a coalesced action (`coalesce`) on its count. */
const COALESCE_MS = 3_600_000;

/** The columns an event writes, with their types as its JSON rows are read. */
const EVENT_COLUMNS = [
  ["account_id", "int"],
  ["actor_type", "text"],
  ["actor_user_id", "int"],
  ["actor", "text"],
  ["action", "text"],
  ["target_type", "text"],
  ["target_id", "text"],
  ["changes", "jsonb"],
  ["client_address", "text"],
] as const;

/**
 * The events recorded within a few milliseconds of each other, in one statement (one JSON parameter,
 * built once): every warm request records one, and twenty clients warming at once made twenty
 * statements, each its own commit and its own turn on the embedded database (docs/benchmarks.md).
 */
const insertAuditEvents = gatheredPerDatabase(async (db: Database, events: readonly AuditEventInput[]) => {
  const rows = events.map((event) => ({
    account_id: event.accountId,
    actor_type: event.actor.type,
    actor_user_id: event.actor.userId ?? null,
    actor: event.actor.label,
    action: event.action,
    target_type: event.targetType,
    target_id: event.targetId === undefined || event.targetId === null ? null : String(event.targetId),
    changes: event.changes?.length ? event.changes : null,
    client_address: event.clientAddress || null,
  }));
  await executePrepared(
    db,
    "insert_audit_events",
    () => sql`insert into ${auditEvents} (${sql.raw(EVENT_COLUMNS.map(([name]) => name).join(", "))})
              select * from json_to_recordset(${sql.placeholder("rows")}::json) as v(${sql.raw(EVENT_COLUMNS.map((column) => column.join(" ")).join(", "))})`,
    { rows: JSON.stringify(rows) },
  );
  return events.map(() => undefined);
}, 500);

/** Counts a coalesced event on the entry of its last hour, if there is one; answers whether it did. */
async function countedOnRecentEntry(db: Database, event: AuditEventInput): Promise<boolean> {
  if (event.targetId === undefined || event.targetId === null) return false;
  const recent = db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.accountId, event.accountId),
        eq(auditEvents.targetType, event.targetType),
        eq(auditEvents.targetId, String(event.targetId)),
        eq(auditEvents.action, event.action),
        eq(auditEvents.actorType, event.actor.type),
        eq(auditEvents.actor, event.actor.label),
        gt(auditEvents.createdAt, new Date(Date.now() - COALESCE_MS)),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(1);
  const counted = await db
    .update(auditEvents)
    .set({ count: sql`${auditEvents.count} + 1` })
    .where(inArray(auditEvents.id, recent))
    .returning({ id: auditEvents.id });
  return counted.length > 0;
}

/**
 * Writes one event, or with `coalesce` counts it on the entry of the same action on the same target
 * in the last hour (two calls at the very same moment may still make two entries: the log stays
 * bounded by the hour). Events are not otherwise updated; they go when older than
 * PREHEAT_AUDIT_RETENTION_DAYS.
 */
export async function recordAuditEvent(db: Database, event: AuditEventInput): Promise<void> {
  if (event.coalesce && (await countedOnRecentEntry(db, event))) return;
  await insertAuditEvents(db, event);
}

type Row = typeof auditEvents.$inferSelect;

function toAuditEventView(row: Row, target: TargetNow): AuditEventView {
  return {
    id: row.id,
    action: row.action,
    actor: { type: row.actorType as AuditActorType, label: row.actor, ...(row.actorUserId !== null && { user_id: row.actorUserId }) },
    target: { type: row.targetType, id: row.targetId, ...target },
    changes: row.changes ?? [],
    client_address: row.clientAddress,
    count: row.count,
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
  const targetNow = await targetsNow(
    ctx.db,
    ctx.accountId,
    rows.map((row) => ({ type: row.targetType, id: row.targetId })),
  );
  return { data: rows.map((row) => toAuditEventView(row, targetNow({ type: row.targetType, id: row.targetId }))), total: counted?.n ?? 0 };
}

/** Deletes the events older than PREHEAT_AUDIT_RETENTION_DAYS before `now` (the worker's periodic sweep); answers how many went. */
export async function pruneAuditEvents(db: Database, now = new Date(), retentionDays = setting("PREHEAT_AUDIT_RETENTION_DAYS")): Promise<number> {
  const removed = await db
    .delete(auditEvents)
    .where(lt(auditEvents.createdAt, new Date(now.getTime() - retentionDays * DAY_MS)))
    .returning({ id: auditEvents.id });
  return removed.length;
}
