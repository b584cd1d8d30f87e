import { sendJob } from "@/lib/jobs";
import { planRunOrFail } from "@/lib/runs/plan";
import { reportRunEnd } from "@/lib/runs/report";
import type { JobHandler } from "../job-handler";

/** Turns a pending run into batches, then hands it to the warming job; a run that ends here is reported. */
export const runPlan: JobHandler<"run.plan"> = async (payload, { db, final }) => {
  const outcome = await planRunOrFail(db, payload.runId, final);
  if (outcome.status === "planned") await sendJob("run.batch", payload);
  if (outcome.status === "done" || outcome.status === "failed") await reportRunEnd(db, payload.runId);
  return outcome;
};
