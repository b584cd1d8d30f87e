import { and, eq, sql } from "drizzle-orm";
import { boosts, runBatches, runs } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { summariseRuns } from "./summary";
import { plural } from "@/lib/format";


/**
 * Ends a run whose batches are all warmed: its final status and message, and the boost's status.
 * Idempotent: a run that is no longer running, or still has batches to warm (another region's job
 * ends it), is left as it is. Returns the ended run, if this call ended it.
 */
export async function finishRun(db: Database, runId: number) {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  if (!run || run.status !== "running") return undefined;
  // Once no batch is pending, every batch's statistics are final (a batch is marked done with its last figures).
  const [unwarmed] = await db.select({ id: runBatches.id }).from(runBatches).where(and(eq(runBatches.runId, runId), eq(runBatches.status, "pending"))).limit(1);
  if (unwarmed) return undefined;
  const summary = (await summariseRuns(db, [runId])).get(runId);
  const [bypass] = await db
    .select({ n: sql<string>`coalesce(sum(${runBatches.bypassedCalls}), 0)` })
    .from(runBatches)
    .where(eq(runBatches.runId, runId));
  const total = summary?.total_calls ?? 0;
  const failed = summary?.failed_calls ?? 0;
  const bypassed = Number(bypass?.n ?? 0);
  const status = total > 0 && failed === total ? "failed" : "done";
  const parts = [
    `${plural(total, "call")}: ${plural(summary?.successful_calls ?? 0, "success", "successes")}, ${failed} failed, ${plural(summary?.cache_hits ?? 0, "cache hit")}.`,
  ];
  if (bypassed && bypassed === total - failed) {
    parts.push("Every answer bypassed the CDN's cache (it does not cache these requests, e.g. crawler user agents on Vercel): nothing was warmed.");
  } else if (bypassed) {
    parts.push(`${plural(bypassed, "answer")} bypassed the CDN's cache.`);
  }
  if (status === "failed") parts.push(`Every call failed, e.g. ${run.failureSamples[0]?.error ?? "unknown error"}.`);
  const message = [run.statusMessage, ...parts].filter(Boolean).join(" ");
  const [ended] = await db
    .update(runs)
    .set({ status, statusMessage: message, finishedAt: new Date() })
    .where(and(eq(runs.id, runId), eq(runs.status, "running")))
    .returning();
  if (ended?.boostId) await db.update(boosts).set({ status: "active", updatedAt: new Date() }).where(and(eq(boosts.id, ended.boostId), eq(boosts.status, "running")));
  return ended;
}
