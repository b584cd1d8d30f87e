import { eq } from "drizzle-orm";
import { changeReceivers, sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { DomainError, MalformedError, NotFoundError, UnauthenticatedError } from "@/lib/core/errors";
import type { Database } from "@/lib/db";
import { decryptSecret } from "@/lib/secrets";
import { deliveryOfEvent, type NewDelivery, recordDelivery } from "./deliveries";
import { queueChanges, queueDeployChanges } from "./queue";
import type { ReceivedChange, ReceiverKind } from "./receiver-schemas";
import { SECRET_PURPOSE } from "./receivers";
import { SYSTEMS } from "./systems";
import type { InboundDelivery } from "./systems/types";
import { mapPayload } from "./templates";

export type { InboundDelivery } from "./systems/types";

/** What a delivery came to; `repeat`: the system sent it before (same id), and nothing was queued again. */
export type ReceiveResult = { repeat: boolean; answer: ReceivedChange; receiver: { id: number; accountId: number } };

const UNKNOWN_RECEIVER = "Unknown or deleted change receiver.";

async function receiverOf(db: Database, publicId: string) {
  const [found] = await db
    .select({ receiver: changeReceivers, domain: sites.domain })
    .from(changeReceivers)
    .innerJoin(sites, eq(sites.id, changeReceivers.siteId))
    .where(eq(changeReceivers.publicId, publicId));
  if (!found) throw new NotFoundError(UNKNOWN_RECEIVER);
  return found;
}

/**
 * One delivery to a receiver's URL: the system's signature is checked before anything of the body
 * is read (401 `invalid_signature` otherwise), then the payload is parsed, mapped to the site's URLs
 * through the receiver's templates (or, for a deploy, left to the sitemaps) and queued as changes.
 * Every verified delivery is recorded with its outcome, so the owner sees why nothing was warmed.
 */
export async function receiveChange(db: Database, publicId: string, delivery: InboundDelivery, now = Date.now()): Promise<ReceiveResult> {
  const { receiver: row, domain } = await receiverOf(db, publicId);
  const kind = row.kind as ReceiverKind;
  const system = SYSTEMS[kind];
  const secret = decryptSecret(row.secret, SECRET_PURPOSE);
  const who = { id: row.id, accountId: row.accountId };
  const verdict = await system.verify(delivery, secret, now);
  if (!verdict.ok) throw new UnauthenticatedError(verdict.reason, undefined, "invalid_signature");

  const record = { id: row.id, secret };
  if (verdict.eventId) {
    const earlier = await deliveryOfEvent(db, row.id, verdict.eventId);
    if (earlier) return { repeat: true, receiver: who, answer: { delivery_id: earlier.id, queued: false, reason: `A repeat of delivery ${earlier.id} (the same delivery id): not queued again.` } };
  }

  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(delivery.body).toString("utf8"));
  } catch {
    await recordDelivery(db, record, { outcome: "malformed", reason: "The body is not JSON.", event: null, eventId: verdict.eventId });
    throw new MalformedError("The request body is not valid JSON.");
  }

  const reading = system.read(payload, delivery.headers);
  const finish = async (entry: NewDelivery, answer: Omit<ReceivedChange, "delivery_id">): Promise<ReceiveResult> => {
    const saved = await recordDelivery(db, record, { ...entry, payload, eventId: verdict.eventId });
    if (!saved) {
      // The same delivery id arrived twice at once: the other one was recorded first.
      const earlier = verdict.eventId ? await deliveryOfEvent(db, row.id, verdict.eventId) : undefined;
      return { repeat: true, receiver: who, answer: { ...answer, delivery_id: earlier?.id ?? 0 } };
    }
    return { repeat: false, receiver: who, answer: { ...answer, delivery_id: saved.id } };
  };

  if (reading.action === "ignore") return finish({ outcome: "ignored", reason: reading.reason, event: reading.event }, { queued: false, reason: reading.reason });

  const ctx: AccountContext = { db, accountId: row.accountId, trigger: { kind: "changes", label: `${kind} receiver ${row.id}` } };
  let urls: string[] = [];
  let misses: string[] = [];
  if (reading.action === "map") {
    ({ urls, misses } = mapPayload(row.urlTemplates, reading.key, payload, domain));
    if (!urls.length) {
      const reason = `No URL: ${misses.join("; ")}.`;
      return finish({ outcome: "unmapped", reason, event: reading.event ?? reading.key ?? null }, { queued: false, reason });
    }
  }
  const event = reading.action === "map" ? (reading.event ?? reading.key ?? null) : reading.event;
  let queued: { run_id: number; url_count?: number; status: string; warm_at?: string };
  try {
    if (reading.action === "map") queued = await queueChanges(ctx, row.siteId, { urls });
    else {
      const deployed = await queueDeployChanges(ctx, row.siteId);
      // A site without a change boost has nothing a deploy warms: the owner is told why.
      if (deployed.run_id === null) return finish({ outcome: "ignored", reason: deployed.reason, event }, { queued: false, reason: deployed.reason });
      queued = deployed;
    }
  } catch (error) {
    // A refusal the owner can act on (quota, a site not validated…) is recorded; the system gets the error's answer.
    if (error instanceof DomainError) await recordDelivery(db, record, { outcome: "failed", reason: error.message, event, urls, payload });
    throw error;
  }
  const partly = misses.length ? `Some templates did not match: ${misses.join("; ")}.` : null;
  return finish(
    { outcome: "queued", reason: partly, event, urls, runId: queued.run_id },
    { queued: true, run_id: queued.run_id, url_count: queued.url_count, status: queued.status, warm_at: queued.warm_at, ...(partly ? { reason: partly } : {}) },
  );
}
