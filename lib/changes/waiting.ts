import { and, desc, eq, ne, sql } from "drizzle-orm";
import { runs } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import type { RUN_STATUSES } from "@/lib/core/run-status";
import { getSite } from "@/lib/sites/service";
import { type ChangesWaiting, RECENT_CHANGES_RUNS } from "./schemas";

/**
 * The site's changes waiting to be warmed (ADR 0012): its pending changes run with its URLs and
 * when it warms (`warm_at` may have passed by a second: the tick plans it then), or null, and its
 * last changes runs otherwise, newest first, with their status.
 */
export async function changesWaiting(ctx: AccountContext, siteId: number): Promise<ChangesWaiting> {
  const site = await getSite(ctx, siteId);
  const ofSite = and(eq(runs.siteId, site.id), eq(runs.accountId, ctx.accountId), eq(runs.trigger, "changes"));
  const [pending] = await ctx.db
    .select({ id: runs.id, urls: runs.sourceUrls, plannedCalls: runs.plannedCalls, openUntil: runs.openUntil, createdAt: runs.createdAt })
    .from(runs)
    .where(and(ofSite, eq(runs.status, "pending")))
    .orderBy(desc(runs.id))
    .limit(1);
  const recent = await ctx.db
    .select({
      id: runs.id,
      status: runs.status,
      urlCount: sql<number>`coalesce(cardinality(${runs.sourceUrls}), 0)`.mapWith(Number),
      createdAt: runs.createdAt,
      finishedAt: runs.finishedAt,
    })
    .from(runs)
    .where(pending ? and(ofSite, ne(runs.id, pending.id)) : ofSite)
    .orderBy(desc(runs.id))
    .limit(RECENT_CHANGES_RUNS);
  return {
    waiting: pending
      ? {
          run_id: pending.id,
          urls: pending.urls ?? [],
          planned_calls: pending.plannedCalls,
          // Every changes run is opened with its `open_until`; a row without one would warm at once.
          warm_at: (pending.openUntil ?? pending.createdAt).toISOString(),
          opened_at: pending.createdAt.toISOString(),
        }
      : null,
    default_delay_seconds: setting("PREHEAT_CHANGE_DELAY_SECONDS"),
    recent: recent.map((run) => ({
      run_id: run.id,
      status: run.status as (typeof RUN_STATUSES)[number],
      url_count: run.urlCount,
      created_at: run.createdAt.toISOString(),
      finished_at: run.finishedAt?.toISOString() ?? null,
    })),
  };
}
