import { setting } from "@/lib/config";

/** The server runs the embedded worker unless separate `npm run worker` processes do. */
export function embeddedWorkerEnabled(): boolean {
  return setting("PREHEAT_EMBEDDED_WORKER");
}

/**
 * Fetches of one job kind a worker process keeps going (PREHEAT_JOB_CONCURRENCY, default 4, at
 * most 64): one job each for sitemaps and e-mails, up to PREHEAT_RUNS_PER_FETCH runs each for
 * planning and warming (the engine warms them all together). Each record still has one active job
 * at a time.
 */
export function jobConcurrency(): number {
  return setting("PREHEAT_JOB_CONCURRENCY");
}
