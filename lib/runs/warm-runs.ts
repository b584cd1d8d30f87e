import { and, count, desc, eq, sql } from "drizzle-orm";
import { runs } from "@/drizzle/schema";
import type { Page } from "@/lib/core/pagination";
import { noteQuotaSpent, reserveQuotaWith } from "@/lib/runs/quota";
import { insertSelecting } from "@/lib/db/insert-select";
import { assertPlanRegions, assertPlanVerification, runResultsMaxOf } from "@/lib/plans/limits";
import { activeStanding } from "@/lib/plans/suspension";
import { verifyColumns } from "@/lib/core/variations";
import type { AccountContext } from "@/lib/context";
import { isUniqueViolation } from "@/lib/db";
import { ConflictError, InvalidError, QuotaExceededError } from "@/lib/core/errors";
import { sendJob } from "@/lib/jobs";
import type { RegionCode } from "@/lib/core/regions";
import { requestProfileOf, sealRequestProfile } from "./request-profile";
import { countCalls } from "./calls";
import { toWarmRuns, triggerColumns } from "./service";
import { parseSiteUrl } from "@/lib/sites/domain-name";
import { getSite } from "@/lib/sites/service";
import type { WarmInput } from "./warm-schemas";
import { mostVisitedFirst, visitsByPath } from "@/lib/popularity";

export const DEFAULT_WARM_REGIONS: RegionCode[] = ["fr"];

/** The URLs as the site's own, each once, in their order; 422 naming the first that is not. */
export function siteUrlsOf(urls: string[], domain: string): string[] {
  const accepted = new Set<string>();
  urls.forEach((input, index) => {
    const parsed = parseSiteUrl(input, domain);
    if ("problem" in parsed) throw new InvalidError(`urls[${index}]: ${parsed.problem}.`, [{ field: `urls[${index}]`, message: parsed.problem }]);
    accepted.add(parsed.url.toString());
  });
  return [...accepted];
}

/** What the API and the MCP server answer for a queued warm. */
export function toWarmQueued({ run, urlCount }: { run: { id: number }; urlCount: number }) {
  return { run_id: run.id, url_count: urlCount, status: "pending" as const };
}

/** Queues an on-demand warm of the given URLs for a validated site. */
export async function queueWarm(ctx: AccountContext, siteId: number, input: WarmInput) {
  // Independent reads, sent together: one turn of the embedded database instead of two (the intake's
  // rate did not change with it: the thread's CPU bounds it, docs/benchmarks.md).
  const [site, { plan }] = await Promise.all([getSite(ctx, siteId), activeStanding(ctx.db, ctx.accountId)]);
  const sent = siteUrlsOf(input.urls, site.domain);
  const urls = input.url_order === "traffic" ? mostVisitedFirst(sent, (url) => url, await visitsByPath(ctx.db, site.id)) : sent;
  if (!site.validated) throw new ConflictError(`The site ${site.domain} is not validated yet: validate it before warming URLs on demand.`, undefined, "site_not_validated");
  const regions = input.region ?? DEFAULT_WARM_REGIONS;
  const variations = input.variations ?? null;
  const requestProfile = sealRequestProfile(requestProfileOf(input));
  const plannedCalls = countCalls(urls.length, { regions, variations, requestProfile });
  assertPlanRegions(plan, regions);
  assertPlanVerification(plan, Boolean(input.verify));
  const conflict = () => new ConflictError("A warm run is already pending or running for this site; wait for it to end.", undefined, "warm_in_progress");
  // The unique index runs_one_active_warm_per_site refuses a second active warm: the statement fails
  // as a whole, and the quota it counted goes back with it.
  const newRun = insertSelecting(
    "warm_run",
    runs,
    {
      kind: "warm",
      siteId: site.id,
      accountId: ctx.accountId,
      sourceUrls: urls,
      regions,
      variations,
      requestProfile,
      plannedCalls,
      resultsMax: runResultsMaxOf(plan),
      ...triggerColumns(ctx.trigger),
      ...verifyColumns(input.verify ?? false),
    },
    sql`granted`,
    sql`id`,
  );
  const run = await reserveQuotaWith<{ id: number }>(ctx.db, ctx.accountId, plannedCalls, newRun).catch(async (error) => {
    if (isUniqueViolation(error)) throw conflict();
    if (error instanceof QuotaExceededError) await noteQuotaSpent(ctx.db, ctx.accountId);
    throw error;
  });
  await sendJob("run.plan", { runId: run.id, siteId: site.id });
  return { run: { id: run.id, plannedCalls }, urlCount: urls.length };
}

export async function listWarmRuns(ctx: AccountContext, siteId: number, page: Page) {
  const site = await getSite(ctx, siteId);
  const where = and(eq(runs.siteId, site.id), eq(runs.kind, "warm"));
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(runs).where(where).orderBy(desc(runs.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(runs).where(where),
  ]);
  return { data: await toWarmRuns(ctx.db, rows), total: total?.n ?? 0 };
}
