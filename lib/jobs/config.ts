/** Inngest takes the work when it is configured (Cloud with an event key, or a dev/self-hosted server). */
export function inngestConfigured(): boolean {
  return Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_DEV);
}

/** The server runs the embedded worker unless separate `npm run worker` processes do. */
export function embeddedWorkerEnabled(): boolean {
  return process.env.PREHEAT_EMBEDDED_WORKER !== "false";
}
