import { and, eq, isNotNull, sql } from "drizzle-orm";
import { boosts, runs } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { AccountContext } from "@/lib/context";
import type { RunTrigger } from "@/lib/core/run-trigger";
import { ConflictError, QuotaExceededError } from "@/lib/core/errors";
import { type Database, isUniqueViolation } from "@/lib/db";
import { insertSelecting, type PreparedPart } from "@/lib/db/insert-select";
import { assertPlanRegions, runResultsMaxOf } from "@/lib/plans/limits";
import { activeStanding } from "@/lib/plans/suspension";
import { countCalls } from "@/lib/runs/calls";
import { GATHER_SETTLE_MS } from "@/lib/runs/plan";
import { sendJob } from "@/lib/jobs";
import { noteQuotaSpent, reserveQuotaWith } from "@/lib/runs/quota";
import { assertUnvalidatedRunBudget } from "@/lib/runs/service";
import { startAsDeploy } from "@/lib/boosts/hooks";
import { DEFAULT_WARM_REGIONS, siteUrlsOf } from "@/lib/runs/warm-runs";
import type { SiteRow } from "@/lib/sites/site-row";
import { getSite } from "@/lib/sites/service";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";

/** What the change API and each receiver answer for changes queued: the run they join, and when it warms. */
export type ChangesQueued = {
  run_id: number;
  /** URLs of this request the run will warm (new to it, or already in it). */
  url_count: number;
  /** URLs of this request left out by the cap on a site whose ownership is not proven. */
  left_out: number;
  status: "pending";
  /** When the run starts warming: the first change it gathered plus its delay. */
  warm_at: string;
};

export type ChangesInput = { urls: string[]; delay_seconds?: number };

type Run = typeof runs.$inferSelect;

/** The variants and regions a site's changes are warmed with: its change boost's, or a warm's defaults. */
type ChangeProfile = Pick<Run, "regions" | "variations" | "requestProfile"> & { boostId: number | null };

async function changeProfileOf(db: Database, site: Pick<SiteRow, "id" | "changeBoostId">): Promise<ChangeProfile> {
  if (site.changeBoostId !== null) {
    const [boost] = await db
      .select({ regions: boosts.regions, variations: boosts.variations, requestProfile: boosts.requestProfile })
      .from(boosts)
      .where(and(eq(boosts.id, site.changeBoostId), eq(boosts.siteId, site.id)));
    if (boost) return { ...boost, boostId: site.changeBoostId };
  }
  return { regions: DEFAULT_WARM_REGIONS, variations: null, requestProfile: null, boostId: null };
}

/** The run's trigger: changes, with who sent them (the key's prefix, the member, the receiver). */
function changesTrigger(trigger: RunTrigger | undefined): RunTrigger {
  return { kind: "changes", label: trigger?.label ?? null };
}

/** URLs a run may still take on a site whose ownership is not proven: its first ones, within the URL and call caps. */
function roomOnUnvalidated(profile: ChangeProfile, alreadyIn: number): number {
  const byCalls = Math.floor(UNVALIDATED_LIMITS.callsPerRun / Math.max(1, countCalls(1, profile)));
  return Math.max(0, Math.min(UNVALIDATED_LIMITS.urlsPerRun, byCalls) - alreadyIn);
}

/** Adds URLs to the site's gathering changes run, in the statement that counts their calls (none added when the quota refuses). */
function joining(runId: number, added: string[], calls: number): PreparedPart {
  return {
    shape: "changes_join",
    build: () => sql`
      update ${runs} set
        source_urls = ${runs.sourceUrls} || array(select json_array_elements_text(${sql.placeholder("join_urls")}::json)),
        planned_calls = ${runs.plannedCalls} + ${sql.placeholder("join_calls")}::int
      from granted where ${runs.id} = ${sql.placeholder("join_run")}::int
      returning ${runs.id}`,
    values: { join_urls: JSON.stringify(added), join_calls: calls, join_run: runId },
  };
}

/**
 * Queues changed URLs of a site for a warm through its change profile (ADR 0012): they join the site's
 * gathering changes run (a URL sent twice is warmed once), or open one that warms `delay_seconds` from
 * now; the keep-warm tick plans it once that time has passed, and its calls go ahead of the site's
 * other runs. Quota, plan, suspension and the unvalidated site's caps apply. `ctx.trigger` says who
 * sent them.
 */
export async function queueChanges(ctx: AccountContext, siteId: number, input: ChangesInput): Promise<ChangesQueued> {
  const [site, { plan }] = await Promise.all([getSite(ctx, siteId), activeStanding(ctx.db, ctx.accountId)]);
  const urls = siteUrlsOf(input.urls, site.domain);
  const profile = await changeProfileOf(ctx.db, site);
  assertPlanRegions(plan, profile.regions);
  const delaySeconds = input.delay_seconds ?? setting("PREHEAT_CHANGE_DELAY_SECONDS");
  let sealed: Run | undefined;
  const attempt = () =>
    ctx.db.transaction(async (tx): Promise<ChangesQueued> => {
      const [pending] = await tx
        .select({ run: runs, open: sql<boolean>`${runs.openUntil} > now()` })
        .from(runs)
        .where(and(eq(runs.siteId, site.id), eq(runs.trigger, "changes"), eq(runs.status, "pending"), isNotNull(runs.openUntil)))
        .for("update");
      const gathering = pending?.open ? pending.run : undefined;
      // Its delay has passed and the tick has not planned it yet: no URL may join it any more (the
      // planner reads them without a lock). It is sealed (no open_until: out of the one-gathering
      // index) and planned now, and these changes open the next run.
      if (pending && !gathering) {
        await tx.update(runs).set({ openUntil: null }).where(eq(runs.id, pending.run.id));
        sealed = pending.run;
      }
      const known = new Set(gathering?.sourceUrls ?? []);
      let fresh = urls.filter((url) => !known.has(url));
      const room = site.validated ? fresh.length : roomOnUnvalidated(gathering ?? profile, known.size);
      const leftOut = fresh.length - Math.min(room, fresh.length);
      fresh = fresh.slice(0, room);
      const answer = (run: { id: number; openUntil: Date | null }) => ({
        run_id: run.id,
        url_count: urls.length - leftOut,
        left_out: leftOut,
        status: "pending" as const,
        warm_at: run.openUntil!.toISOString(),
      });
      const calls = countCalls(fresh.length, gathering ?? profile);
      if (gathering) {
        if (fresh.length) await reserveQuotaWith(tx, ctx.accountId, calls, joining(gathering.id, fresh, calls));
        return answer(gathering);
      }
      if (!fresh.length) {
        throw new ConflictError(
          `The site ${site.domain} is not validated, and its change profile makes more than ${UNVALIDATED_LIMITS.callsPerRun} calls a URL: validate the site to warm its changes.`,
          undefined,
          "site_not_validated",
        );
      }
      await assertUnvalidatedRunBudget(tx, site.id);
      const openUntil = new Date(Date.now() + delaySeconds * 1000);
      const trigger = changesTrigger(ctx.trigger);
      const opened = insertSelecting(
        "changes_run",
        runs,
        {
          kind: "warm",
          siteId: site.id,
          accountId: ctx.accountId,
          boostId: null,
          sourceUrls: fresh,
          regions: profile.regions,
          variations: profile.variations,
          requestProfile: profile.requestProfile,
          plannedCalls: calls,
          resultsMax: runResultsMaxOf(plan),
          trigger: trigger.kind,
          triggerLabel: trigger.label,
          openUntil,
          statusMessage: `Changes: gathered for ${delaySeconds} s, then warmed ahead of the site's other runs.`,
        },
        sql`granted`,
        sql`id`,
      );
      const run = await reserveQuotaWith<{ id: number }>(tx, ctx.accountId, calls, opened);
      return answer({ id: Number(run.id), openUntil });
    });
  const queued = await attempt()
    .catch((error) => {
      // Two requests opened the site's changes run at once: the index let one win, and this joins it.
      if (isUniqueViolation(error)) return attempt();
      throw error;
    })
    .catch(async (error) => {
      if (error instanceof QuotaExceededError) await noteQuotaSpent(ctx.db, ctx.accountId);
      throw error;
    });
  if (sealed) await sendJob("run.plan", { runId: sealed.id, siteId: sealed.siteId });
  return queued;
}

/** What a deploy notification started: the change boost's run (or the one it joined), or why nothing was. */
export type DeployQueued = { run_id: number; status: string; coalesced: boolean } | { run_id: null; reason: string };

/**
 * A site was deployed (a Netlify or Vercel notification): its change boost runs as a deploy hook
 * would run it, joining the run already waiting, so that with `only_changed` it warms what its
 * sitemaps say changed since its last run rather than everything. A site without a change boost
 * has nothing to warm: the answer says why.
 */
export async function queueDeployChanges(ctx: AccountContext, siteId: number): Promise<DeployQueued> {
  const site = await getSite(ctx, siteId);
  await activeStanding(ctx.db, ctx.accountId);
  const profile = await changeProfileOf(ctx.db, site);
  if (profile.boostId === null) {
    return {
      run_id: null,
      reason: `The site ${site.domain} has no change boost: set its change_boost_id to a boost over its sitemaps (with only_changed, to warm what changed) for deploys to warm it.`,
    };
  }
  const { run, coalesced } = await startAsDeploy(ctx.db, profile.boostId, ctx.trigger?.label ?? "a deploy");
  return { run_id: run.id, status: run.status, coalesced };
}

/**
 * Plans the changes runs whose delay has passed (and the settling after it): the keep-warm tick's
 * every pass. Answers how many were sent to planning.
 */
export async function startDueChanges(db: Database): Promise<number> {
  const due = await db
    .select({ id: runs.id, siteId: runs.siteId })
    .from(runs)
    // A sealed run (no open_until: queueChanges) is due at once; its request sent it to planning, and this is the fallback.
    .where(and(eq(runs.trigger, "changes"), eq(runs.status, "pending"), sql`(${runs.openUntil} is null or ${runs.openUntil} <= now() - make_interval(secs => ${GATHER_SETTLE_MS / 1000}))`));
  await Promise.all(due.map((run) => sendJob("run.plan", { runId: run.id, siteId: run.siteId })));
  return due.length;
}
