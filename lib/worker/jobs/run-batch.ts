import { sendJob } from "@/lib/jobs";
import { finishRun } from "@/lib/runs/finish";
import { reportRunEnd } from "@/lib/runs/report";
import { warmNextBatch } from "@/lib/runs/warm-loop";
import type { JobHandler } from "../job-handler";

/** Warms a run's region for a while, then queues itself again until the region is done; the last region done ends the run. */
export const runBatch: JobHandler<"run.batch"> = async (payload, { db }) => {
  const next = await warmNextBatch(db, payload.runId, payload.region);
  if (next === "more") await sendJob("run.batch", payload);
  // Ended (here, by another region's job, or before a crash) or paused: the boost's report, once
  // (the outbox dedupes per run). A warm this job just ended has none: no need to look.
  const ended = next === "finished" ? await finishRun(db, payload.runId) : false;
  if (next !== "more" && ended !== "warm") await reportRunEnd(db, payload.runId);
  return { next };
};
