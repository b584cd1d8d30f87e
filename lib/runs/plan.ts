import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { boostSitemaps, boosts, runBatches, runs, sitemaps, sitemapUrls, sites } from "@/drizzle/schema";
import type { PlannedCall } from "@/lib/core/calls";
import { addUsage, getQuota, quotaExceededMessage } from "@/lib/runs/quota";
import type { Database } from "@/lib/db";
import { gatheredPerDatabase } from "@/lib/db/gathered";
import { plural } from "@/lib/core/format";
import { describeSourceError, fetchCsvUrls, isSourceError, isTransient } from "@/lib/sources";
import { mergedDetails, normaliseUrl } from "@/lib/sources/site-urls";
import type { RegionCode } from "@/lib/core/regions";
import { refreshStaleSitemaps } from "@/lib/sitemaps/freshness";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";
import { refreshCrawlDelay } from "@/lib/sites/crawl-delay";
import { keepsUrl } from "@/lib/warm/url-filters";
import { type CallPlan, countCalls, regionCalls } from "./calls";
import { inIdsPlaceholder, recordset } from "@/lib/db/recordset";
import { preparedOnce } from "@/lib/db/prepared";
import { unusableProfile } from "./request-profile";
import type { UrlOrder } from "@/lib/core/url-orders";
import type { VisitShare } from "@/lib/core/traffic";
import { mostVisitedFirst, visitShareOf, visitsByPath } from "@/lib/popularity";
import { changedSince, type ListedUrl, orderUrls } from "./url-order";
import { latestBaseline, storeSnapshot } from "./url-snapshots";
import { reactivateBoostsOfEndedRuns } from "./lifecycle";

/** Calls per stored batch: the unit of progress, statistics and retry. */
export const BATCH_SIZE = 500;

/** What planning did; `regions`: the regions that got calls, each warmed by a run.batch job of its own. */
export type PlanOutcome = { status: "planned" | "done" | "failed" | "skipped"; calls: number; message: string | null; regions: RegionCode[] };

/** A run that is no longer pending (planned already, or gone) is left as it is. */
const SKIPPED: PlanOutcome = { status: "skipped", calls: 0, message: null, regions: [] };

type Run = typeof runs.$inferSelect;
type Boost = typeof boosts.$inferSelect;

/** What a boost (saved, or a draft being edited) warms from, and how it filters: all planning and the estimate need of it. */
export type BoostSource = {
  /** The saved boost (whose last done run `onlyChanged` compares with); null for a new one. */
  boostId: number | null;
  sourceType: "sitemap" | "csv";
  sourceUrl: string | null;
  sitemapIds: number[];
  urlRoot: string;
  excludeExt: string[] | null;
  contentTypes: string[] | null;
  callLimit: number | null;
  order: UrlOrder;
  onlyChanged: boolean;
  keepWarm: boolean;
  monthlyCallBudget: number | null;
};

export async function boostSourceOf(db: Database, boost: Boost): Promise<BoostSource> {
  const links = boost.sourceType === "csv" ? [] : await db.select({ id: boostSitemaps.sitemapId }).from(boostSitemaps).where(eq(boostSitemaps.boostId, boost.id));
  return { ...boost, boostId: boost.id, sourceType: boost.sourceType as BoostSource["sourceType"], sitemapIds: links.map((l) => l.id) };
}

/** The sitemaps' URLs in their order (sitemap, then position), each once, with its newest lastmod and highest priority. */
function listedOnce(rows: ListedUrl[]): ListedUrl[] {
  const byUrl = new Map<string, ListedUrl>();
  for (const row of rows) {
    const known = byUrl.get(row.url);
    byUrl.set(row.url, known ? { url: row.url, ...mergedDetails(known, row) } : row);
  }
  return [...byUrl.values()];
}

/**
 * A boost that picks its URLs by lastmod or priority, or leaves out the unchanged, must see the
 * sitemaps as they are now: each is read again (a conditional GET) before every run. Otherwise,
 * only those read longer ago than the operator's maximum age.
 */
const refreshAgeSeconds = (boost: BoostSource) => (boost.onlyChanged || boost.order === "priority" || boost.order === "lastmod" ? 0 : undefined);

async function boostUrls(db: Database, boost: BoostSource, domain: string, refresh: boolean): Promise<{ urls: ListedUrl[]; note?: string }> {
  if (boost.sourceType === "csv") {
    const csv = await fetchCsvUrls(boost.sourceUrl!, domain);
    const skipped = csv.invalid + csv.offDomain;
    return { urls: Array.from(csv.urls, ([url, details]) => ({ url, ...details })), note: skipped ? `${skipped} CSV rows skipped (invalid or outside ${domain})` : undefined };
  }
  const ids = boost.sitemapIds;
  if (!ids.length) return { urls: [], note: "the boost has no sitemaps left" };
  // The run warms what the sitemaps list now: those read too long ago are read again first.
  const stale = refresh ? await refreshStaleSitemaps(db, ids, refreshAgeSeconds(boost)) : [];
  const rows = await db
    .select({ url: sitemapUrls.url, lastmod: sitemapUrls.lastmod, priority: sitemapUrls.priority })
    .from(sitemapUrls)
    .innerJoin(sitemaps, and(eq(sitemaps.id, sitemapUrls.sitemapId), eq(sitemaps.urlsGeneration, sitemapUrls.generation)))
    .where(inArray(sitemapUrls.sitemapId, ids))
    .orderBy(asc(sitemapUrls.id));
  const urls = listedOnce(rows);
  if (!urls.length) {
    const states = await db.select({ status: sitemaps.status }).from(sitemaps).where(inArray(sitemaps.id, ids));
    const unready = states.filter((s) => s.status !== "done").length;
    return { urls, note: [...stale, unready ? `${unready} of the boost's sitemaps are not processed yet` : "the boost's sitemaps list no URLs"].join("; ") };
  }
  return { urls, note: stale.join("; ") || undefined };
}

async function end(db: Database, run: Run, status: "done" | "failed", message: string): Promise<PlanOutcome> {
  const now = new Date();
  await db
    .update(runs)
    .set({ status, statusMessage: message, startedAt: run.startedAt ?? now, finishedAt: now })
    .where(eq(runs.id, run.id));
  if (run.boostId) await reactivateBoostsOfEndedRuns(db, [run.boostId]);
  return { status, calls: 0, message, regions: [] };
}

/**
 * Turns a pending run into stored batches and marks it running. Idempotent: a run that is no
 * longer pending is left as it is. Network failures (a CSV source) are thrown for the job to retry.
 */
export function planRun(db: Database, runId: number): Promise<PlanOutcome> {
  return planTogether(db, runId);
}

/**
 * How long after its open_until a changes run is planned at the earliest: a request that locked it
 * just before then has committed its URLs by that time (lib/changes/queue.ts).
 */
export const GATHER_SETTLE_MS = 500;

/** A changes run gathers its site's changes until its open_until (and the settling after it): it is planned only then, by the keep-warm tick. */
function stillGathering(run: Run): boolean {
  return run.trigger === "changes" && run.openUntil !== null && run.openUntil.getTime() > Date.now() - GATHER_SETTLE_MS;
}

/**
 * Runs asked to be planned within a few milliseconds of each other are planned together: one
 * query loads them all, and on-demand warms (their URLs are in the run) are stored in one
 * transaction. A boost run (its sources are read now) is planned on its own. When planning warms
 * together fails, each is planned on its own, so that one run's failure stays its own.
 */
async function planMany(db: Database, ids: readonly number[]): Promise<(PlanOutcome | Error)[]> {
  const found = await runsToPlan(db).execute({ ids: JSON.stringify(ids) });
  const byId = new Map(found.filter((f) => f.run.status === "pending" && !stillGathering(f.run)).map((f) => [f.run.id, f]));
  const outcomes = new Map<number, PlanOutcome | Error>();
  // A warm whose profile cannot be sent is planned alone, where it fails saying why.
  const warms = [...byId.values()].filter((f) => !f.boost && countCalls(f.run.sourceUrls?.length ?? 0, f.run) > 0 && !unusableProfile(f.run.requestProfile));
  try {
    for (const [id, outcome] of await planWarms(db, warms)) outcomes.set(id, outcome);
  } catch {
    // Planned one by one below.
  }
  // One by one, a few at a time: a boost run may read a million sitemap URLs while it is planned.
  const alone = [...byId.values()].filter((f) => !outcomes.has(f.run.id));
  const next = async (): Promise<void> => {
    for (let f = alone.shift(); f; f = alone.shift()) outcomes.set(f.run.id, await planLoaded(db, f).catch((error: Error) => error));
  };
  await Promise.all(Array.from({ length: PLANNED_ALONE_AT_ONCE }, next));
  return ids.map((id) => outcomes.get(id) ?? SKIPPED);
}

/**
 * The runs to plan with their sites and boosts, by id: built once per database (lib/db/prepared.ts).
 * While 200 warms arrived, building selects took 4.9 % of the server's thread, this one's eighty-odd
 * columns and the adoption's the widest of them.
 */
const runsToPlan = preparedOnce((db: Database) =>
  db
    .select({ run: runs, site: sites, boost: boosts })
    .from(runs)
    .innerJoin(sites, eq(sites.id, runs.siteId))
    .leftJoin(boosts, eq(boosts.id, runs.boostId))
    .where(inIdsPlaceholder(runs.id, "ids"))
    .prepare("runs_to_plan"),
);

/** Runs planned together at most (one statement of each kind for their warms). */
export const PLANS_AT_ONCE = 1000;
/** Runs whose sources are read while they are planned (boosts), planned at once at most. */
const PLANNED_ALONE_AT_ONCE = 4;

type Loaded = { run: Run; site: typeof sites.$inferSelect; boost: Boost | null };
const planTogether = gatheredPerDatabase(planMany, PLANS_AT_ONCE);

/** Stores a run's batches, `BATCH_SIZE` calls each, region after region; answers the regions that got calls. */
type BatchInsert = { runId: number; seq: number; region: string; calls: PlannedCall[] };

function* batchRows(run: Run, urls: string[], callLimit: number | null): Generator<BatchInsert> {
  let seq = 0;
  for (const region of run.regions) {
    let calls: PlannedCall[] = [];
    for (const call of regionCalls(urls, run, callLimit, region)) {
      calls.push(call);
      if (calls.length === BATCH_SIZE) {
        yield { runId: run.id, seq: seq++, region, calls };
        calls = [];
      }
    }
    if (calls.length) yield { runId: run.id, seq: seq++, region, calls };
  }
}

/** Calls stored per INSERT while planning (20 full batches), whether one run's or many small runs'. */
const INSERT_CALLS = 10_000;

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Stores batch rows as they come, INSERT_CALLS calls per statement, as one JSON parameter (drizzle's
 * insert built a parameter for each column of each row, each time); `flush` stores the rest.
 */
function batchWriter(tx: Transaction) {
  let rows: BatchInsert[] = [];
  let calls = 0;
  const flush = async () => {
    if (rows.length) {
      const values = JSON.stringify(rows.map(({ runId, seq, region, calls }) => ({ run_id: runId, seq, region, calls })));
      await tx.execute(sql`insert into ${runBatches} (run_id, seq, region, calls) select * from ${recordset(values, "run_id int, seq int, region text, calls jsonb")}`);
    }
    rows = [];
    calls = 0;
  };
  return {
    async add(row: BatchInsert) {
      rows.push(row);
      calls += row.calls.length;
      if (calls >= INSERT_CALLS) await flush();
    },
    flush,
  };
}

/** On-demand warms (URLs in the run, quota reserved when queued) stored together: one transaction for all. */
async function planWarms(db: Database, warms: Loaded[]): Promise<Map<number, PlanOutcome>> {
  const outcomes = new Map<number, PlanOutcome>();
  if (!warms.length) return outcomes;
  const siteIds = [...new Set(warms.map(({ site }) => site.id))];
  const visitsOfSite = new Map(await Promise.all(siteIds.map(async (id) => [id, await visitsByPath(db, id)] as const)));
  await db.transaction(async (tx) => {
    const writer = batchWriter(tx);
    for (const { run } of warms) {
      const regions = new Set<RegionCode>();
      for (const row of batchRows(run, run.sourceUrls ?? [], null)) {
        regions.add(row.region as RegionCode);
        await writer.add(row);
      }
      outcomes.set(run.id, { status: "planned", calls: countCalls(run.sourceUrls?.length ?? 0, run), message: null, regions: [...regions] });
    }
    await writer.flush();
    const values = JSON.stringify(warms.map(({ run, site }) => ({ id: run.id, calls: outcomes.get(run.id)!.calls, visit_share: visitShareOf(run.sourceUrls ?? [], visitsOfSite.get(site.id)!) })));
    await tx.execute(sql`
      update ${runs} as r set status = 'running', planned_calls = v.calls, started_at = now(), status_message = null, visit_share = v.visit_share
      from ${recordset(values, "id int, calls int, visit_share jsonb")}
      where r.id = v.id and r.status = 'pending'`);
  });
  return outcomes;
}

/**
 * What a boost's run warms: its URLs in order after every filter and cap, the call limit that
 * applies, and why calls were left out. `unchanged`: URLs `only_changed` left out. `listed`: a
 * sitemap boost's URLs after its filters, `only_changed` aside: the run's snapshot. `visitShare`:
 * the share of the site's visits (lib/popularity) the warmed URLs carry, null without traffic data.
 */
export type BoostSelection = {
  urls: string[];
  callLimit: number | null;
  total: number;
  notes: string[];
  unchanged: number;
  listed: ListedUrl[] | null;
  visitShare: VisitShare | null;
  /** The URLs selected before a call limit kept the most visited of them. */
  selected: number;
  /** The URLs the calls cover (the first `warmed` of `urls`: a call limit may stop within the last one). */
  warmed: number;
};

/** `only_changed`: the URLs new or changed since the boost's last done run (every one before there is such a run). */
async function changedOnly(db: Database, boost: BoostSource, listed: ListedUrl[]): Promise<{ kept: ListedUrl[]; unchanged: number; note?: string }> {
  if (!boost.onlyChanged || boost.sourceType !== "sitemap") return { kept: listed, unchanged: 0 };
  const baseline = boost.boostId === null ? null : await latestBaseline(db, boost.boostId);
  if (!baseline) return { kept: listed, unchanged: 0, note: "every URL counts as changed: the boost has no completed run to compare with yet" };
  const { kept, unchanged } = changedSince(listed, baseline);
  return { kept, unchanged, note: `${plural(unchanged, "URL")} left out as unchanged since run ${baseline.runId}` };
}

/**
 * A budget that cannot cover every URL spends itself where visits are (issue 59): the call limit
 * keeps the most visited URLs it can cover, warmed in the boost's order; a keep-warm budget, which
 * spends by the run's order (the entries' priority), warms most visited first.
 */
function spendWhereVisitsAre(urls: string[], boost: BoostSource, plan: CallPlan, callLimit: number | null, visits: ReadonlyMap<string, number>): { urls: string[]; note?: string } {
  if (!visits.size || boost.order === "traffic") return { urls };
  if (boost.keepWarm && boost.monthlyCallBudget !== null) {
    return { urls: mostVisitedFirst(urls, (u) => u, visits), note: "the keep-warm budget warms the most visited URLs first" };
  }
  const perUrl = countCalls(1, plan);
  if (callLimit === null || perUrl === 0 || countCalls(urls.length, plan) <= callLimit) return { urls };
  const covered = new Set(mostVisitedFirst(urls, (u) => u, visits).slice(0, Math.ceil(callLimit / perUrl)));
  return { urls: urls.filter((url) => covered.has(url)), note: `the call limit keeps the ${plural(covered.size, "most visited URL")}` };
}

/**
 * The one reading of a boost's source into a run's URLs and calls: the sitemaps' lists (read again
 * first when stale and `refresh`) or the CSV file, then url_root, exclude_ext and content_types,
 * only_changed, the order, the caps of a site not validated, and the call limit (the order comes
 * before the caps: they keep the first URLs; a limit that cannot cover all keeps the most visited).
 * Planning and the estimate both use it.
 */
export async function selectBoostCalls(db: Database, boost: BoostSource, site: { id: number; domain: string; validated: boolean }, plan: CallPlan, refresh: boolean): Promise<BoostSelection> {
  const notes: string[] = [];
  const [source, visits] = await Promise.all([boostUrls(db, boost, site.domain, refresh), visitsByPath(db, site.id)]);
  if (source.note) notes.push(source.note);
  const listed = source.urls.filter((u) => {
    const url = normaliseUrl(u.url);
    return url && keepsUrl(url, { urlRoot: boost.urlRoot, excludeExt: boost.excludeExt, contentTypes: boost.contentTypes });
  });
  if (listed.length < source.urls.length) notes.push(`${source.urls.length - listed.length} URLs left out by url_root, exclude_ext or content_types`);
  const changed = await changedOnly(db, boost, listed);
  if (changed.note) notes.push(changed.note);
  let urls = orderUrls(changed.kept, boost.order, visits).map((u) => u.url);
  if (!site.validated && urls.length > UNVALIDATED_LIMITS.urlsPerRun) {
    urls = urls.slice(0, UNVALIDATED_LIMITS.urlsPerRun);
    notes.push(`the site is not validated, so only its first ${UNVALIDATED_LIMITS.urlsPerRun} URLs are warmed`);
  }
  let callLimit = boost.callLimit ?? null;
  const uncapped = countCalls(urls.length, plan);
  if (!site.validated && uncapped > Math.min(callLimit ?? Infinity, UNVALIDATED_LIMITS.callsPerRun)) {
    callLimit = UNVALIDATED_LIMITS.callsPerRun;
    notes.push(`the site is not validated, so a run makes at most ${UNVALIDATED_LIMITS.callsPerRun} calls (${uncapped} without the cap)`);
  } else if (callLimit !== null && uncapped > callLimit) {
    notes.push(`stopped at the call limit of ${callLimit}`);
  }
  const selected = urls.length;
  const spent = spendWhereVisitsAre(urls, boost, plan, callLimit, visits);
  if (spent.note) notes.push(spent.note);
  urls = spent.urls;
  const total = countCalls(urls.length, plan, callLimit);
  const warmed = Math.min(urls.length, Math.ceil(total / Math.max(1, countCalls(1, plan))));
  return {
    urls,
    callLimit,
    total,
    notes,
    unchanged: changed.unchanged,
    listed: boost.sourceType === "sitemap" ? listed : null,
    visitShare: visitShareOf(urls.slice(0, warmed), visits),
    selected,
    warmed,
  };
}

/** A sitemap boost's run keeps what it found, for the next `only_changed` run to compare with. */
async function keepSnapshot(db: Database, run: Run, selection: BoostSelection): Promise<void> {
  if (run.boostId && selection.listed) await storeSnapshot(db, { id: run.id, boostId: run.boostId }, selection.listed);
}

/** Another run of the boost is warming: a follow-up waits for it (lib/boosts/hooks.ts), and is planned when it ends. */
async function warmingBefore(db: Database, run: Run): Promise<boolean> {
  if (!run.boostId) return false;
  const [warming] = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.boostId, run.boostId), eq(runs.status, "running")))
    .limit(1);
  return Boolean(warming);
}

async function planLoaded(db: Database, { run, site, boost }: Loaded): Promise<PlanOutcome> {
  if (await warmingBefore(db, run)) return SKIPPED;
  const unusable = unusableProfile(run.requestProfile);
  if (unusable) return end(db, run, "failed", unusable);
  const selection: BoostSelection = boost
    ? await selectBoostCalls(db, await boostSourceOf(db, boost), site, run, true)
    : {
        urls: run.sourceUrls ?? [],
        callLimit: null,
        total: countCalls(run.sourceUrls?.length ?? 0, run),
        notes: [],
        unchanged: 0,
        listed: null,
        visitShare: null,
        selected: run.sourceUrls?.length ?? 0,
        warmed: run.sourceUrls?.length ?? 0,
      };
  const { urls, callLimit, total, notes } = selection;
  // A keep-warm boost comes back to the site all day long: its robots.txt's Crawl-delay (read once a
  // day) sets the site's pace before the first call goes out.
  if (boost?.keepWarm && urls[0]) await refreshCrawlDelay(db, site.id, new URL(urls[0]).origin);
  if (!total) {
    return db.transaction(async (tx) => {
      await keepSnapshot(tx, run, selection);
      return end(tx, run, "done", `Nothing to warm: ${notes.join("; ") || "no URLs"}.`);
    });
  }

  if (boost) {
    // Warm runs reserved their calls when queued; a boost run learns its size only now.
    const quota = await getQuota(db, site.accountId);
    if (total > quota.remaining) {
      return end(db, run, "failed", quotaExceededMessage("run", total, quota));
    }
  }

  const planned = new Set<RegionCode>();
  await db.transaction(async (tx) => {
    const writer = batchWriter(tx);
    for (const row of batchRows(run, urls, callLimit)) {
      planned.add(row.region as RegionCode);
      await writer.add(row);
    }
    await writer.flush();
    await keepSnapshot(tx, run, selection);
    const [started] = await tx
      .update(runs)
      .set({
        status: "running",
        plannedCalls: total,
        startedAt: new Date(),
        visitShare: selection.visitShare,
        statusMessage: notes.length ? `${notes.join("; ")}.`.replace(/^./, (c) => c.toUpperCase()) : null,
      })
      .where(and(eq(runs.id, run.id), eq(runs.status, "pending")))
      .returning({ id: runs.id });
    // A boost run's calls count against the quota once it knows them (a warm's counted when queued).
    if (started && boost) await addUsage(tx, run.accountId, run.createdAt, total);
  });
  return { status: "planned", calls: total, message: notes.join("; ") || null, regions: [...planned] };
}

/** planRun for the job runner: a source that cannot be read fails the run on the last attempt (or at once when retrying cannot help). */
export async function planRunOrFail(db: Database, runId: number, final: boolean): Promise<PlanOutcome> {
  try {
    return await planRun(db, runId);
  } catch (error) {
    if (!final && (!isSourceError(error) || isTransient(error))) throw error;
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    if (run?.status !== "pending") return SKIPPED;
    if (!(error instanceof Error) || describeSourceError(error).startsWith("Unexpected")) console.error("[runs] planning failed", error);
    return end(db, run, "failed", `The URL source could not be read: ${describeSourceError(error)}`);
  }
}
