import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { eq, sql } from "drizzle-orm";
import type { Egress } from "@/lib/core/regions";
import { workers } from "@/drizzle/schema";
import { parseRegionList } from "@/lib/config/parsers";
import type { Database } from "@/lib/db";
import { REGIONS, type RegionCode } from "@/lib/core/regions";
import { warmingCallsInFlight } from "./call";
import { regionProxyUrl } from "./egress";

/** This process, as it signs its site slots and reports in. */
export const WORKER_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

/** A regional worker counts as present this long after it last reported in. */
const WORKER_FRESH_SECONDS = 60;
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

/** Records that this worker is alive, with its region list and the calls it is making now. */
export async function reportIn(db: Database): Promise<void> {
  const report = { regions: workerRegions(), seenAt: sql`now()`, callsInFlight: warmingCallsInFlight() };
  await db
    .insert(workers)
    .values({ id: WORKER_ID, ...report })
    .onConflictDoUpdate({ target: workers.id, set: report });
  // Long-gone workers are forgotten, so the table stays as small as the fleet.
  await db.delete(workers).where(sql`${workers.seenAt} < now() - interval '1 day'`);
}

export async function signOff(db: Database): Promise<void> {
  await db.delete(workers).where(eq(workers.id, WORKER_ID));
}

/** Every worker that reported in within the last day, newest report first: the operator console's view. */
export async function listWorkers(db: Database) {
  const rows = await db.select().from(workers).orderBy(sql`${workers.seenAt} desc`);
  const freshSince = Date.now() - WORKER_FRESH_SECONDS * 1000;
  return rows.map((row) => ({
    id: row.id,
    regions: row.regions as RegionCode[],
    started_at: row.startedAt.toISOString(),
    last_report_at: row.seenAt.toISOString(),
    live: row.seenAt.getTime() > freshSince,
    calls_in_flight: row.callsInFlight,
  }));
}

/** Each region that has a regional worker seen in the last minute, with those workers: their calls are that worker's. */
async function workersByRegion(db: Database): Promise<Map<RegionCode, Set<string>>> {
  const rows = await db
    .select({ id: workers.id, regions: workers.regions })
    .from(workers)
    .where(sql`${workers.seenAt} > now() - make_interval(secs => ${WORKER_FRESH_SECONDS}) and cardinality(${workers.regions}) > 0`);
  const byRegion = new Map<RegionCode, Set<string>>();
  for (const row of rows) for (const region of row.regions as RegionCode[]) byRegion.set(region, (byRegion.get(region) ?? new Set()).add(row.id));
  return byRegion;
}

/** Regions that have a regional worker seen in the last minute. */
export async function regionsWithWorkers(db: Database): Promise<Set<RegionCode>> {
  return new Set((await workersByRegion(db)).keys());
}

export type RegionEgress = { code: RegionCode; name: string; egress: Egress; shares_egress_with: RegionCode[] };

/**
 * Every region, how its calls leave the service now, and which other regions leave the same way:
 * regions on the service's own network share it, regions whose proxy is the same share it, and
 * regions one worker takes share that worker's network. Calls of regions that share an egress
 * reach the same CDN PoPs, so warming them apart fills one cache, not several.
 */
export async function regionsWithEgress(db: Database): Promise<RegionEgress[]> {
  const byWorker = await workersByRegion(db);
  const exits = REGIONS.map((r) => {
    const workerIds = byWorker.get(r.code);
    const proxy = regionProxyUrl(r.code);
    const egress: Egress = workerIds ? "worker" : proxy ? "proxy" : "local";
    // The networks a region's calls may leave from: two regions share an egress when these meet.
    const networks = egress === "worker" ? [...workerIds!].map((id) => `worker:${id}`) : egress === "proxy" ? [`proxy:${proxy}`] : ["local"];
    return { code: r.code, name: r.name, egress, networks };
  });
  return exits.map(({ networks, ...region }) => ({
    ...region,
    shares_egress_with: exits.filter((other) => other.code !== region.code && other.networks.some((n) => networks.includes(n))).map((other) => other.code),
  }));
}
