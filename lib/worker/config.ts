/** Inngest takes the work when it is configured (Cloud with an event key, or a dev/self-hosted server). */
export function inngestConfigured(): boolean {
  return Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_DEV);
}

/** The server runs the embedded worker unless separate `npm run worker` processes do. */
export function embeddedWorkerEnabled(): boolean {
  return process.env.PREHEAT_EMBEDDED_WORKER !== "false";
}

/**
 * Jobs of one kind a worker process runs at once (PREHEAT_JOB_CONCURRENCY, default 4): runs of
 * different sites warm side by side instead of queueing behind the slowest site. Each record still
 * has one active job at a time, and each site its own concurrency limit.
 */
export function jobConcurrency(): number {
  const configured = Number(process.env.PREHEAT_JOB_CONCURRENCY);
  return Number.isInteger(configured) && configured > 0 ? Math.min(configured, 64) : 4;
}
