import { sendJob } from "@/lib/jobs";
import { planRunOrFail } from "@/lib/runs/plan";
import type { JobHandler } from "../job-handler";

/** Turns a pending run into batches, then hands each region to its warming job; a run that ends here is reported. */
export const runPlan: JobHandler<"run.plan"> = async (payload, { db, final }) => {
  const outcome = await planRunOrFail(db, payload.runId, final);
  // Each region is warmed by a job of its own: a regional worker takes its region's.
  if (outcome.status === "planned") await Promise.all(outcome.regions.map((region) => sendJob("run.batch", { ...payload, region })));
  if (outcome.status === "done" || outcome.status === "failed") await sendJob("run.ended", { runId: payload.runId });
  return outcome;
};
