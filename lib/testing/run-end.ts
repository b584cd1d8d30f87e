import type { AccountContext } from "@/lib/context";
import { getRun } from "@/lib/runs/service";
import { isActiveRun } from "@/lib/core/run-status";

/** Waits for a run to end (done, failed or paused) and answers it as the API would. */
export async function runEnded(ctx: AccountContext, runId: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(ctx, runId);
    if (!isActiveRun(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
