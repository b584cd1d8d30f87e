import { LRUCache } from "lru-cache";
import { isActiveRun } from "@/lib/core/run-status";
import type { Database } from "@/lib/db";
import { oncePerDatabase } from "@/lib/db/per-database";

/**
 * Finished runs' list entries, kept between requests. A run that ended with its final figures kept
 * (finishRun) no longer changes, so a page of GET /v1/runs whose runs were shown before reads only
 * their ids: the busiest read of the API, and the one dashboards poll (docs/benchmarks.md). An entry
 * serves only a run whose status and end time are still those it was made from (a run finished again
 * would differ). Per process and database, at most ENTRIES_MAX entries, the least recently used out
 * first.
 */
const ENTRIES_MAX = 5_000;

/** What makes an entry valid: the run's status and end time as the page read them. */
export type FinishedStamp = { status: string; finishedAt: Date | null };

type Entry = { status: string; finishedAtMs: number; entry: unknown };

const entriesOf = (db: Database) => oncePerDatabase("finishedRunEntries", db, () => new LRUCache<number, Entry>({ max: ENTRIES_MAX }));

/** The run's entry made when it was finished as `stamp` says, or undefined. */
export function keptEntry<T>(db: Database, runId: number, stamp: FinishedStamp): T | undefined {
  const kept = entriesOf(db).get(runId);
  if (!kept || kept.status !== stamp.status || kept.finishedAtMs !== stamp.finishedAt?.getTime()) return undefined;
  return kept.entry as T;
}

/** Keeps the entry of a finished run (`hasFinalFigures`: its summary was kept when it ended); nothing for the others. */
export function keepEntry<T>(db: Database, runId: number, stamp: FinishedStamp & { hasFinalFigures: boolean }, entry: T): void {
  if (!stamp.hasFinalFigures || !stamp.finishedAt || isActiveRun(stamp.status)) return;
  entriesOf(db).set(runId, { status: stamp.status, finishedAtMs: stamp.finishedAt.getTime(), entry });
}
