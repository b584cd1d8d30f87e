import { isActiveRun } from "./run-status";

/** Boost statuses and what each means, in a module of their own: the API's description and the dashboard's badges read the same sentences. */
export const BOOST_STATUSES = ["pending", "running", "active", "paused"] as const;
export type BoostStatus = (typeof BOOST_STATUSES)[number];

export const BOOST_STATUS_MEANINGS: Record<BoostStatus, string> = {
  pending: "Not run yet: created or resumed, and no run has ended since.",
  running: "A run of it is queued or warming.",
  active: "Its last run ended (done or failed); its schedule, if any, starts the next one.",
  paused: "Auto-paused after a high error rate: its schedule does not fire until it is run or updated.",
};

/**
 * A boost's status as its page shows it beside its runs, read with them: running exactly while its
 * newest run is active (queued or warming, the one rule of run-status.ts), so that the badge and the
 * runs table never disagree. Once that run has ended, the boost's own status, which the server sets
 * with the run's end (lib/runs/lifecycle.ts: paused with an auto-paused run, active otherwise) and the
 * page reads again at once: a "running" still held from before the end already reads as it will.
 */
export function boostStatusWithRuns(status: BoostStatus, newestRun: { status: string } | null): BoostStatus {
  if (newestRun && isActiveRun(newestRun.status)) return "running";
  if (status !== "running") return status;
  return newestRun?.status === "paused" ? "paused" : "active";
}
