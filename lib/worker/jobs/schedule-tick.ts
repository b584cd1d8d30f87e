import { pruneAuditEvents } from "@/lib/accounts/audit";
import { forgetOldIdempotencyKeys } from "@/lib/api/idempotency";
import { startDueBoosts } from "@/lib/boosts/schedule-tick";
import { queueDueOwnershipChecks } from "@/lib/sites/recheck";
import type { JobHandler } from "../job-handler";

/**
 * The cron tick: starts the scheduled boosts that are due, queues the ownership rechecks that are
 * due, forgets the idempotency keys past their 24 hours and deletes the audit events older than
 * PREHEAT_AUDIT_RETENTION_DAYS (an index range on created_at: nothing to do on most ticks).
 */
export const scheduleTick: JobHandler<"schedule.tick"> = async (_payload, { db }) => {
  const started = await startDueBoosts(db);
  await queueDueOwnershipChecks(db);
  await forgetOldIdempotencyKeys(db);
  await pruneAuditEvents(db);
  return started;
};
