import { and, eq, sql } from "drizzle-orm";
import { siteSlots, sites } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { siteConcurrency, sitePace } from "@/lib/sites/pace";
import { CALL_TIMEOUT_MS } from "@/lib/warm/call";
import { WORKER_ID } from "@/lib/warm/workers";
import { idList, inIds, recordset } from "@/lib/db/recordset";

/**
 * How long slots last without renewal (PREHEAT_SITE_SLOT_TTL_SECONDS, default 10). The worker sends
 * nothing new to the site once its lease has lapsed; the others count its slots as held for as long
 * again as a call may last (CALL_TIMEOUT_MS), the longest its calls sent before then can still be at
 * the site. A dead (or stalled) worker's share comes back after both.
 */
export function slotTtlSeconds(): number {
  return setting("PREHEAT_SITE_SLOT_TTL_SECONDS");
}
const IN_FLIGHT_GRACE_SECONDS = CALL_TIMEOUT_MS / 1000;

/** The advisory-lock space of site slots: one lock per site, taken in site order (no deadlock). */
const LOCK_SPACE = 7_341_854;

/**
 * This worker's share of a site's limit beside the others warming it: an equal split (the first
 * in worker-id order take the remainder), never more than the others leave free.
 */
export function shareOf(limit: number, me: string, others: { workerId: string; slots: number }[]): number {
  const claimants = [...others.map((o) => o.workerId), me].sort();
  const rank = claimants.indexOf(me);
  const share = Math.floor(limit / claimants.length) + (rank < limit % claimants.length ? 1 : 0);
  const available = limit - others.reduce((sum, o) => sum + o.slots, 0);
  return Math.max(0, Math.min(share, available));
}

export type SiteGrant = { siteId: number; slots: number; concurrency: number; requestsPerSecond: number | null };

type SiteLimits = { id: number; maxConcurrency: number | null; maxRequestsPerSecond: number | null; crawlDelaySeconds: number | null; validated: boolean };

/** `slots` of the site's limit: its share of the site's requests a second goes with them. */
function grantOf(site: SiteLimits, slots: number): SiteGrant {
  const concurrency = siteConcurrency(site);
  const pace = sitePace(site);
  return { siteId: site.id, slots, concurrency, requestsPerSecond: pace === null ? null : (pace * slots) / concurrency };
}

/**
 * The grant of a site when this worker is the only one: on the embedded database, which one process
 * owns, no other worker can warm the site, and the whole limit is this one's, with no slot rows. The
 * renewal's transaction (five statements) stood between each new run and its first call: 74 ms on
 * average, 184 ms at p90, while 200 warms arrived (docs/benchmarks.md).
 */
export function soleGrant(site: SiteLimits): SiteGrant {
  return grantOf(site, siteConcurrency(site));
}

/** The sites' limits as they are now: a site's limit may change while its runs warm. */
function siteLimits(db: Pick<Database, "select">, siteIds: number[]): Promise<SiteLimits[]> {
  return db
    .select({ id: sites.id, maxConcurrency: sites.maxConcurrency, maxRequestsPerSecond: sites.maxRequestsPerSecond, crawlDelaySeconds: sites.crawlDelaySeconds, validated: sites.validated })
    .from(sites)
    .where(inIds(sites.id, siteIds));
}

/** The sole worker's grants of the sites it warms, their limits read again. */
export async function soleGrants(db: Database, held: number[]): Promise<SiteGrant[]> {
  if (!held.length) return [];
  return (await siteLimits(db, held)).map(soleGrant);
}

/**
 * What the renewal asks of the worker for each site, in the instant its grant is decided: lower the
 * limit it sends under to `grant` now (a rise waits for the commit) and answer its calls in flight,
 * which it keeps holding until they are back.
 */
export type LowerTo = (siteId: number, grant: number) => number;

/**
 * Renews this worker's slots for the sites it warms and gives back those it left, for every site
 * in one transaction: the site's limit holds for the whole service (every worker process, every
 * run, every region), whatever the number of workers. Answers what this worker may send now.
 */
export async function renewSlots(db: Database, held: number[], released: number[], lowerTo: LowerTo): Promise<SiteGrant[]> {
  const all = [...new Set([...held, ...released])].sort((a, b) => a - b);
  if (!all.length) return [];
  // Thousands of sites each second: every list goes as one JSON parameter.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, v.site) from ${idList(all)} as v(site)`); // in site order (all is sorted): no deadlock
    await tx.delete(siteSlots).where(and(inIds(siteSlots.siteId, all), sql`${siteSlots.expiresAt} < now() - make_interval(secs => ${IN_FLIGHT_GRACE_SECONDS})`));
    if (released.length) await tx.delete(siteSlots).where(and(eq(siteSlots.workerId, WORKER_ID), inIds(siteSlots.siteId, released)));
    if (!held.length) return [];
    const [rows, siteRows] = await Promise.all([tx.select().from(siteSlots).where(inIds(siteSlots.siteId, held)), siteLimits(tx, held)]);
    const othersBySite = new Map<number, { workerId: string; slots: number }[]>();
    for (const row of rows) if (row.workerId !== WORKER_ID) othersBySite.set(row.siteId, [...(othersBySite.get(row.siteId) ?? []), row]);
    const grants: SiteGrant[] = [];
    const values: { site_id: number; slots: number }[] = [];
    for (const site of siteRows) {
      const grant = shareOf(siteConcurrency(site), WORKER_ID, othersBySite.get(site.id) ?? []);
      // Until its calls in flight are back, the worker keeps holding them: the others never count on slots in use.
      const keep = Math.max(grant, lowerTo(site.id, grant));
      grants.push(grantOf(site, grant));
      values.push({ site_id: site.id, slots: keep });
    }
    if (values.length) {
      await tx.execute(sql`
        insert into ${siteSlots} (site_id, worker_id, slots, expires_at)
        select v.site_id, ${WORKER_ID}, v.slots, now() + make_interval(secs => ${slotTtlSeconds()})
        from ${recordset(JSON.stringify(values), "site_id int, slots int")}
        on conflict (site_id, worker_id) do update set slots = excluded.slots, expires_at = excluded.expires_at`);
    }
    return grants;
  });
}
