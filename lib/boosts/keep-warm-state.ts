import type { AccountContext } from "@/lib/context";
import type { Page } from "@/lib/core/pagination";
import { keepWarmFigures, notChasedEntries } from "@/lib/freshness/entries";
import { keepWarmCallsThisMonth } from "@/lib/runs/keep-warm";
import type { z } from "zod";
import type { keepWarmStateSchema } from "./keep-warm-schemas";
import { getBoostRow } from "./service";

/** What keep-warm does for the boost: what the boost page shows, and GET /v1/boosts/{id}/keep-warm. */
export async function keepWarmState(ctx: AccountContext, boostId: number, page: Page): Promise<z.input<typeof keepWarmStateSchema>> {
  const boost = await getBoostRow(ctx.db, ctx, boostId);
  const [figures, notChased, callsThisMonth] = await Promise.all([
    keepWarmFigures(ctx.db, boost.id, boost.monthlyCallBudget),
    notChasedEntries(ctx.db, boost.id, page),
    keepWarmCallsThisMonth(ctx.db, boost.id, new Date()),
  ]);
  return {
    keep_warm: boost.keepWarm,
    entries: figures.entries,
    chased: figures.chased,
    next_due_at: figures.nextDueAt?.toISOString() ?? null,
    calls_this_month: callsThisMonth,
    monthly_call_budget: boost.monthlyCallBudget,
    projected_monthly_calls: figures.projectedMonthlyCalls,
    left_cold_by_budget: figures.leftColdByBudget,
    not_chased: { ...notChased, ...page },
  };
}
