import { and, desc, eq, isNotNull, notInArray, sql } from "drizzle-orm";
import { changeDeliveries } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { type ChangeDeliveryPayload, type DeliveryOutcome, KEPT_DELIVERIES } from "./receiver-schemas";

export type DeliveryRow = typeof changeDeliveries.$inferSelect;

/** A payload larger than this is not kept: the list is for fixing templates, not an archive. */
const MAX_KEPT_PAYLOAD_CHARS = 64 * 1024;
const REDACTED = "[redacted]";
/** Field names that hold credentials in the systems' payloads (Netlify's `log_access_attributes.token`, say). */
const SECRET_FIELD = /secret|token|password|passwd|authorization|api[-_]?key|signature|hmac|cookie/i;
const MAX_DEPTH = 32;

/** The payload without anything secret: secret-looking fields, and the receiver's own secret wherever it appears. */
export function withoutSecrets(value: unknown, secret: string, depth = 0): unknown {
  if (typeof value === "string") return secret && value.includes(secret) ? REDACTED : value;
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, secret, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_FIELD.test(key) ? REDACTED : withoutSecrets(item, secret, depth + 1)]));
}

/** What is kept of a payload: without secrets, and nothing when too large. */
function keptPayload(payload: unknown, secret: string): unknown {
  if (payload === undefined) return null;
  const clean = withoutSecrets(payload, secret);
  return JSON.stringify(clean).length <= MAX_KEPT_PAYLOAD_CHARS ? clean : null;
}

export type NewDelivery = {
  outcome: DeliveryOutcome;
  reason: string | null;
  event: string | null;
  eventId?: string;
  urls?: string[];
  payload?: unknown;
  runId?: number | null;
};

/**
 * Records a delivery and drops the receiver's older ones past the last KEPT_DELIVERIES. Undefined
 * when a delivery of the same system id was recorded meanwhile (a repeat arriving at once).
 */
export async function recordDelivery(db: Database, receiver: { id: number; secret: string }, delivery: NewDelivery): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .insert(changeDeliveries)
    .values({
      receiverId: receiver.id,
      outcome: delivery.outcome,
      reason: delivery.reason,
      event: delivery.event,
      eventId: delivery.eventId ?? null,
      urls: delivery.urls ?? [],
      payload: keptPayload(delivery.payload, receiver.secret),
      runId: delivery.runId ?? null,
    })
    .onConflictDoNothing()
    .returning();
  const kept = db.select({ id: changeDeliveries.id }).from(changeDeliveries).where(eq(changeDeliveries.receiverId, receiver.id)).orderBy(desc(changeDeliveries.id)).limit(KEPT_DELIVERIES);
  await db.delete(changeDeliveries).where(and(eq(changeDeliveries.receiverId, receiver.id), notInArray(changeDeliveries.id, kept)));
  return row;
}

/** The delivery of the system's id `eventId`, if it was received already. */
export async function deliveryOfEvent(db: Database, receiverId: number, eventId: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(changeDeliveries)
    .where(and(eq(changeDeliveries.receiverId, receiverId), eq(changeDeliveries.eventId, eventId)));
  return row;
}

function toDelivery(row: DeliveryRow): ChangeDeliveryPayload {
  return {
    id: row.id,
    received_at: row.receivedAt.toISOString(),
    outcome: row.outcome as DeliveryOutcome,
    reason: row.reason,
    event: row.event,
    urls: row.urls,
    payload: row.payload ?? null,
    run_id: row.runId,
  };
}

/** The receiver's last deliveries, newest first. */
export async function deliveriesOf(db: Database, receiverId: number): Promise<ChangeDeliveryPayload[]> {
  const rows = await db.select().from(changeDeliveries).where(eq(changeDeliveries.receiverId, receiverId)).orderBy(desc(changeDeliveries.id)).limit(KEPT_DELIVERIES);
  return rows.map(toDelivery);
}

/** The receiver's last delivery whose payload was kept (a malformed or oversized one keeps none), if any. */
export async function lastPayloadDelivery(db: Database, receiverId: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(changeDeliveries)
    .where(and(eq(changeDeliveries.receiverId, receiverId), isNotNull(changeDeliveries.payload), sql`${changeDeliveries.payload} <> 'null'::jsonb`))
    .orderBy(desc(changeDeliveries.id))
    .limit(1);
  return row;
}
