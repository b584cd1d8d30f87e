import { and, eq } from "drizzle-orm";
import { inIds } from "@/lib/db/recordset";
import { boosts } from "@/drizzle/schema";
import type { Database } from "@/lib/db";

/*
 * A boost's status follows its run: whoever pauses or ends the run (the warm loop's recording,
 * finishRun) changes the boost through these, so that each rule is written once.
 */

/** The runs auto-paused: their boosts pause with them, so that no schedule starts them again before the owner looks. */
export async function pauseBoostsOfPausedRuns(db: Database, boostIds: readonly number[]): Promise<void> {
  if (!boostIds.length) return;
  await db
    .update(boosts)
    .set({ status: "paused", updatedAt: new Date() })
    .where(inIds(boosts.id, [...boostIds]));
}

/**
 * The runs ended (warmed to their end, or stopped as blocked): their boosts are active again. Only a
 * boost still marked running: one whose status changed meanwhile keeps it.
 */
export async function reactivateBoostsOfEndedRuns(db: Database, boostIds: readonly number[]): Promise<void> {
  if (!boostIds.length) return;
  await db
    .update(boosts)
    .set({ status: "active", updatedAt: new Date() })
    .where(and(inIds(boosts.id, [...boostIds]), eq(boosts.status, "running")));
}
