import { and, eq, sql } from "drizzle-orm";
import { inIds } from "@/lib/db/recordset";
import { runBatches } from "@/drizzle/schema";
import type { Database } from "@/lib/db";

/** Per run, the warming calls recorded so far (verification calls aside); a run with none is absent. */
export async function warmCallsRecorded(db: Database, runIds: readonly number[]): Promise<Map<number, number>> {
  if (!runIds.length) return new Map();
  const totals = await db
    .select({ runId: runBatches.runId, calls: sql<string>`sum(${runBatches.totalCalls})` })
    .from(runBatches)
    .where(and(inIds(runBatches.runId, [...runIds]), eq(runBatches.purpose, "warm")))
    .groupBy(runBatches.runId);
  return new Map(totals.map((row) => [row.runId, Number(row.calls)]));
}
