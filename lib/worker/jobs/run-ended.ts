import { afterRunEnd } from "../after-run-end";
import type { JobHandler } from "../job-handler";

/** A run has ended (done, failed or paused): its webhook event, its boost's report and follow-up run, once each. */
export const runEnded: JobHandler<"run.ended"> = async ({ runId }, { db }) => {
  await afterRunEnd(db, runId);
};
