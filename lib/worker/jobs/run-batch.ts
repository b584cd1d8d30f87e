import { sendJob } from "@/lib/jobs";
import { finishRun } from "@/lib/runs/finish";
import { warmNextBatch } from "@/lib/runs/warm-loop";
import type { JobHandler } from "../job-handler";

/** Warms a run's region for a while, then queues itself again until the region is done; the last region done ends the run. */
export const runBatch: JobHandler<"run.batch"> = async (payload, { db }) => {
  const next = await warmNextBatch(db, payload.runId, payload.region);
  if (next === "more") await sendJob("run.batch", payload);
  // Ended (here, by another region's job, or before a crash) or paused: its report, events and
  // follow-up, once each however often this is reached.
  if (next === "finished") await finishRun(db, payload.runId);
  if (next !== "more") await sendJob("run.ended", { runId: payload.runId });
  return { next };
};
