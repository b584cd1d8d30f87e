import type { DatabaseHandle } from "@/lib/db";
import { embeddedWorkerEnabled, inngestConfigured } from "./config";
import { type EmbeddedJobs, startEmbeddedJobs } from "./embedded";
import { installInngestDriver } from "./inngest-driver";

type Global = typeof globalThis & { __preheatJobs?: Promise<EmbeddedJobs | undefined> };

/** Installs the configured driver once per process; the embedded one may also work the queue here. */
export function startJobs(handle: DatabaseHandle, options: { work?: boolean } = {}): Promise<EmbeddedJobs | undefined> {
  const g = globalThis as Global;
  g.__preheatJobs ??= (async () => {
    if (inngestConfigured()) {
      installInngestDriver();
      return undefined;
    }
    return startEmbeddedJobs(handle, { work: options.work ?? embeddedWorkerEnabled() });
  })();
  return g.__preheatJobs;
}

export async function stopJobs(): Promise<void> {
  const g = globalThis as Global;
  const jobs = await g.__preheatJobs;
  g.__preheatJobs = undefined;
  await jobs?.stop();
}
