import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { siteSlots, sites } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { envNumber } from "@/lib/env";
import { siteConcurrency } from "@/lib/sites/pace";
import { WORKER_ID } from "@/lib/warm/workers";

/** How long slots last without renewal (PREHEAT_SITE_SLOT_TTL_SECONDS, default 10): a dead worker's come back after this. */
export function slotTtlSeconds(): number {
  return envNumber("PREHEAT_SITE_SLOT_TTL_SECONDS", 10);
}

/** The advisory-lock space of site slots: one lock per site, taken in site order (no deadlock). */
const LOCK_SPACE = 7_341_854;

/**
 * This worker's share of a site's limit beside the others warming it: an equal split (the first
 * in worker-id order take the remainder), never more than the others leave free. Until its calls
 * in flight have come back, a worker keeps holding them: the others never count on slots in use.
 */
export function shareOf(limit: number, me: string, others: { workerId: string; slots: number }[], inFlight: number): { grant: number; keep: number } {
  const claimants = [...others.map((o) => o.workerId), me].sort();
  const rank = claimants.indexOf(me);
  const share = Math.floor(limit / claimants.length) + (rank < limit % claimants.length ? 1 : 0);
  const available = limit - others.reduce((sum, o) => sum + o.slots, 0);
  const grant = Math.max(0, Math.min(share, available));
  return { grant, keep: Math.max(grant, inFlight) };
}

export type SiteGrant = { siteId: number; slots: number; concurrency: number; requestsPerSecond: number | null };

/**
 * Renews this worker's slots for the sites it warms and gives back those it left, for every site
 * in one transaction: the site's limit holds for the whole service (every worker process, every
 * run, every region), whatever the number of workers. Answers what this worker may send now.
 */
export async function renewSlots(db: Database, held: number[], released: number[], inFlight: (siteId: number) => number): Promise<SiteGrant[]> {
  const all = [...new Set([...held, ...released])].sort((a, b) => a - b);
  if (!all.length) return [];
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, v.site) from (values ${sql.join(all.map((id) => sql`(${id}::int)`), sql`, `)}) as v(site)`);
    await tx.delete(siteSlots).where(and(inArray(siteSlots.siteId, all), sql`${siteSlots.expiresAt} < now()`));
    if (released.length) await tx.delete(siteSlots).where(and(eq(siteSlots.workerId, WORKER_ID), inArray(siteSlots.siteId, released)));
    if (!held.length) return [];
    const [rows, siteRows] = await Promise.all([
      tx.select().from(siteSlots).where(inArray(siteSlots.siteId, held)),
      tx.select({ id: sites.id, maxConcurrency: sites.maxConcurrency, maxRequestsPerSecond: sites.maxRequestsPerSecond }).from(sites).where(inArray(sites.id, held)),
    ]);
    const grants: SiteGrant[] = [];
    const values: { siteId: number; workerId: string; slots: number; expiresAt: SQL }[] = [];
    for (const site of siteRows) {
      const concurrency = siteConcurrency(site);
      const others = rows.filter((row) => row.siteId === site.id && row.workerId !== WORKER_ID);
      const { grant, keep } = shareOf(concurrency, WORKER_ID, others, inFlight(site.id));
      grants.push({ siteId: site.id, slots: grant, concurrency, requestsPerSecond: site.maxRequestsPerSecond === null ? null : (site.maxRequestsPerSecond * grant) / concurrency });
      values.push({ siteId: site.id, workerId: WORKER_ID, slots: keep, expiresAt: sql`now() + make_interval(secs => ${slotTtlSeconds()})` });
    }
    if (values.length) {
      await tx
        .insert(siteSlots)
        .values(values)
        .onConflictDoUpdate({ target: [siteSlots.siteId, siteSlots.workerId], set: { slots: sql`excluded.slots`, expiresAt: sql`excluded.expires_at` } });
    }
    return grants;
  });
}
