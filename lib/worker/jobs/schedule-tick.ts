import { pruneAuditEvents } from "@/lib/accounts/audit";
import { forgetOldIdempotencyKeys } from "@/lib/api/idempotency";
import { startDueBoosts } from "@/lib/boosts/schedule-tick";
import { queueDueOwnershipChecks } from "@/lib/sites/recheck";
import { pruneExpiredRuns } from "@/lib/runs/retention";
import { sendQuotaNotices } from "@/lib/accounts/quota-notices";
import { sendJob } from "@/lib/jobs";
import { pruneFieldViews } from "@/lib/traffic/field/field";
import { queueDueTrafficReads } from "@/lib/traffic/sources";
import type { JobHandler } from "../job-handler";

/**
 * The cron tick: starts the scheduled boosts that are due, queues the ownership rechecks and the
 * traffic sources' reads that are due, forgets the idempotency keys past their 24 hours, deletes the audit events older than
 * PREHEAT_AUDIT_RETENTION_DAYS (an index range on created_at: nothing to do on most ticks) and the
 * runs older than their plan keeps and the beacon's hours past 90 days, and e-mails the quota lines reached since the last tick. It
 * queues the keep-warm tick too, whose chain of links a stopped worker may have broken.
 */
export const scheduleTick: JobHandler<"schedule.tick"> = async (_payload, { db }) => {
  const started = await startDueBoosts(db);
  await sendJob("keep_warm.tick", {});
  await queueDueOwnershipChecks(db);
  await queueDueTrafficReads(db);
  await forgetOldIdempotencyKeys(db);
  await pruneAuditEvents(db);
  await pruneExpiredRuns(db);
  await pruneFieldViews(db);
  await sendQuotaNotices(db);
  return started;
};
