import { and, eq, isNotNull, lte, ne, or } from "drizzle-orm";
import { boosts } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { sendJob } from "@/lib/jobs";
import { ForbiddenError, TooManyRequestsError } from "@/lib/core/errors";
import { assertUnvalidatedRunBudget, insertBoostRun } from "@/lib/runs/service";
import { hasActiveRun } from "./service";
import { nextFullRunAt } from "@/lib/core/schedule";

/**
 * The cron tick: starts every scheduled boost whose next_run_at has come (UTC), and every keep-warm
 * boost's daily full run when it has no schedule (lib/core/schedule.ts nextFullRunAt), and moves
 * next_run_at past now, so that ticks missed while the service was down start one run, not one
 * per missed tick. A boost with a run in progress, or paused, or of an unvalidated site past its
 * daily runs, or of a suspended organization, is not started.
 */
export async function startDueBoosts(db: Database, now = new Date()): Promise<{ started: number[] }> {
  const due = await db
    .select({ id: boosts.id })
    .from(boosts)
    .where(and(or(isNotNull(boosts.schedule), eq(boosts.keepWarm, true)), lte(boosts.nextRunAt, now), ne(boosts.status, "paused")));
  const started: number[] = [];
  for (const { id } of due) {
    const run = await db.transaction(async (tx) => {
      const [boost] = await tx.select().from(boosts).where(eq(boosts.id, id)).for("update");
      if (!(boost?.schedule || boost?.keepWarm) || !boost.nextRunAt || boost.nextRunAt > now || boost.status === "paused") return undefined;
      await tx
        .update(boosts)
        .set({ nextRunAt: nextFullRunAt(boost, now) })
        .where(eq(boosts.id, id));
      if (await hasActiveRun(tx, id)) return undefined;
      // An unvalidated site past its daily runs skips this tick; its schedule fires again later.
      const withinBudget = await assertUnvalidatedRunBudget(tx, boost.siteId, now).then(
        () => true,
        (error) => (error instanceof TooManyRequestsError ? false : Promise.reject(error)),
      );
      // A suspended organization's schedules start nothing, nor those its plan no longer allows: the occurrence passes.
      return withinBudget
        ? insertBoostRun(tx, boost, { kind: "schedule", label: boost.schedule ?? "keep-warm's daily full run" }).catch((error) => (error instanceof ForbiddenError ? undefined : Promise.reject(error)))
        : undefined;
    });
    if (run) {
      started.push(run.id);
      await sendJob("run.plan", { runId: run.id, siteId: run.siteId });
    }
  }
  return { started };
}
