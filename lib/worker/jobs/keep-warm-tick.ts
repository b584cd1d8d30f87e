import { setTimeout as sleep } from "node:timers/promises";
import { startDueChanges } from "@/lib/changes/queue";
import { sendJob } from "@/lib/jobs";
import { closeKeepWarmRuns, warmDueEntries } from "@/lib/runs/keep-warm";
import type { JobHandler } from "../job-handler";

/** One link of the chain: short, so that a worker stopping waits for it no longer than this. */
const LINK_MS = 10_000;
/** Due entries are claimed this often: a re-warm goes out within a second of its due time. */
const PASS_MS = 1_000;

/**
 * The keep-warm tick (ADR 0010): every second for ten seconds, ends the keep-warm runs whose window
 * has passed, plans the changes runs whose delay has passed (ADR 0012), and adds the entries that are
 * due to their boosts' keep-warm runs; then queues the next link.
 */
export const keepWarmTick: JobHandler<"keep_warm.tick"> = async (_payload, { db, stopping }) => {
  const until = Date.now() + LINK_MS;
  let added = 0;
  // A stopping worker ends its link at once (the next link, or the minute's cron tick, takes over).
  while (Date.now() < until && !stopping?.aborted) {
    const started = Date.now();
    // Ended first: a run whose window has passed and whose batches are done ends, and the boost's next re-warms open its next run.
    await closeKeepWarmRuns(db);
    // The site's changes whose delay has passed go first (issue 58): planned now, warmed ahead of the site's other runs.
    await startDueChanges(db);
    added += await warmDueEntries(db);
    await sleep(Math.max(0, PASS_MS - (Date.now() - started)), undefined, { signal: stopping }).catch(() => {});
  }
  await sendJob("keep_warm.tick", {});
  return { added };
};
