import { eq } from "drizzle-orm";
import { runs } from "@/drizzle/schema";
import { startFollowUp } from "@/lib/boosts/hooks";
import type { Database } from "@/lib/db";
import { announceRunEnd } from "@/lib/webhooks/events";
import { reportRunEnd } from "./run-report";
import { isActiveRun } from "@/lib/core/run-status";

/**
 * What follows the end of a run (done, failed or paused): the boost's report e-mail, the webhook
 * event, and the start of the boost's follow-up run. A run's end is signalled more than once (each
 * region's job, a retry), so each of them is idempotent; a run still active is left alone.
 */
export async function afterRunEnd(db: Database, runId: number): Promise<void> {
  const [run] = await db.select({ status: runs.status, boostId: runs.boostId }).from(runs).where(eq(runs.id, runId));
  if (!run || isActiveRun(run.status)) return;
  await Promise.all([announceRunEnd(db, runId), ...(run.boostId ? [reportRunEnd(db, runId), startFollowUp(db, run.boostId)] : [])]);
}
