import os from "node:os";

/**
 * Lowers this thread's scheduling priority to `nice` (0 to 19), never raises it: a priority an
 * operator set lower (systemd's `Nice=`) stays. On Linux it is the calling thread's, the one that
 * runs the jobs. Measured on 2 cores shared with the web server and PostgreSQL while 1,000 warms
 * arrived: the intake went from about 250 to about 315 warms a second and the runs ended sooner,
 * each run's first call a few hundred milliseconds later (docs/benchmarks.md). Answers the
 * priority the thread runs at.
 */
export function yieldToRequests(nice: number): number {
  try {
    if (nice > os.getPriority()) os.setPriority(nice);
  } catch (error) {
    console.warn(`[worker] could not lower the priority to nice ${nice}: ${(error as Error).message}`);
  }
  return os.getPriority();
}
