import type { AccountContext } from "@/lib/context";
import { isUniqueViolation } from "@/lib/db";
import { ConflictError } from "@/lib/core/errors";
import { sendJob } from "@/lib/jobs";
import { assertUnvalidatedRunBudget, insertBoostRun, type RunRow } from "@/lib/runs/service";
import { unvalidatedLimits } from "@/lib/sites/unvalidated-limits";
import { getBoostRow, hasActiveRun } from "./service";

/** What the API and the MCP server answer for a queued boost run. */
export function toRunQueued(run: { id: number; siteValidated: boolean }) {
  return { run_id: run.id, status: "pending" as const, unvalidated_limits: unvalidatedLimits(run.siteValidated) };
}

const runInProgress = () => new ConflictError("A run of this boost is already pending or running.", undefined, "run_in_progress");

/** Queues a run of the boost now; 409 while one is pending or running. */
export async function triggerBoostRun(ctx: AccountContext, boostId: number, siteId?: number): Promise<RunRow & { siteValidated: boolean }> {
  let run: RunRow & { siteValidated: boolean };
  try {
    run = await ctx.db.transaction(async (tx) => {
      const boost = await getBoostRow(tx, ctx, boostId, siteId, true);
      if (await hasActiveRun(tx, boost.id)) throw runInProgress();
      const { siteValidated } = await assertUnvalidatedRunBudget(tx, boost.siteId);
      return { ...(await insertBoostRun(tx, boost, ctx.trigger)), siteValidated };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw runInProgress();
    throw error;
  }
  await sendJob("run.plan", { runId: run.id, siteId: run.siteId });
  return run;
}
