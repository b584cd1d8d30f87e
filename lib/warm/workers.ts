import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { eq, sql } from "drizzle-orm";
import { type Egress, workers } from "@/drizzle/schema";
import { parseRegionList } from "@/lib/config/parsers";
import type { Database } from "@/lib/db";
import { REGIONS, type RegionCode } from "@/lib/regions";
import { regionProxyUrl } from "./egress";

/** This process, as it signs its site slots and reports in. */
export const WORKER_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** A regional worker counts as present this long after it last reported in. */
export const WORKER_FRESH_SECONDS = 60;
/** Workers report in this often (well within WORKER_FRESH_SECONDS). */
export const REPORT_EVERY_MS = 15_000;

type Global = typeof globalThis & { __preheatWorkerRegions?: RegionCode[] };

/**
 * `--regions de,fr` or PREHEAT_WORKER_REGIONS: the regions whose calls this worker takes. Unknown
 * codes are an error (a typo must not leave a region without its worker); `uk` is `gb`.
 */
export function parseWorkerRegions(text: string): RegionCode[] {
  return parseRegionList(text);
}

/** Sets this process's region list once, at start; an empty list means "every region no regional worker takes". */
export function setWorkerRegions(regions: RegionCode[]): void {
  (globalThis as Global).__preheatWorkerRegions = regions;
}

export function workerRegions(): RegionCode[] {
  return (globalThis as Global).__preheatWorkerRegions ?? [];
}

/** How this process's calls for the region leave: through itself as the region's worker, the region's proxy, or its own network. */
export function callEgress(region: string): Egress {
  if (workerRegions().includes(region as RegionCode)) return "worker";
  return regionProxyUrl(region) ? "proxy" : "local";
}

/** Records that this worker is alive, with its region list. */
export async function reportIn(db: Database): Promise<void> {
  await db
    .insert(workers)
    .values({ id: WORKER_ID, regions: workerRegions(), seenAt: sql`now()` })
    .onConflictDoUpdate({ target: workers.id, set: { regions: workerRegions(), seenAt: sql`now()` } });
  // Long-gone workers are forgotten, so the table stays as small as the fleet.
  await db.delete(workers).where(sql`${workers.seenAt} < now() - interval '1 day'`);
}

export async function signOff(db: Database): Promise<void> {
  await db.delete(workers).where(eq(workers.id, WORKER_ID));
}

/** Regions that have a regional worker seen in the last minute: their calls are that worker's. */
export async function regionsWithWorkers(db: Database): Promise<Set<RegionCode>> {
  const rows = await db
    .select({ regions: workers.regions })
    .from(workers)
    .where(sql`${workers.seenAt} > now() - make_interval(secs => ${WORKER_FRESH_SECONDS}) and cardinality(${workers.regions}) > 0`);
  return new Set(rows.flatMap((row) => row.regions as RegionCode[]));
}

/** Every region and how its calls leave the service now, as GET /v1/me and the dashboard's region choices say. */
export async function regionsWithEgress(db: Database): Promise<{ code: RegionCode; name: string; egress: Egress }[]> {
  const withWorkers = await regionsWithWorkers(db);
  return REGIONS.map((r) => ({ code: r.code, name: r.name, egress: withWorkers.has(r.code) ? "worker" : regionProxyUrl(r.code) ? "proxy" : "local" }));
}
