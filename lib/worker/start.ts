import type { DatabaseHandle } from "@/lib/db";
import { embeddedWorkerEnabled } from "@/lib/worker/config";
import { type EmbeddedJobs, startEmbeddedJobs } from "./embedded";

type Global = typeof globalThis & { __preheatJobs?: Promise<EmbeddedJobs | undefined> };

/**
 * Starts the embedded driver (pg-boss) once per process, working the queue here or not. With
 * Inngest configured, the composition root installs Inngest's driver instead (lib/server/start.ts).
 */
export function startJobs(handle: DatabaseHandle, options: { work?: boolean } = {}): Promise<EmbeddedJobs | undefined> {
  const g = globalThis as Global;
  g.__preheatJobs ??= startEmbeddedJobs(handle, { work: options.work ?? embeddedWorkerEnabled() });
  return g.__preheatJobs;
}

export async function stopJobs(): Promise<void> {
  const g = globalThis as Global;
  const jobs = await g.__preheatJobs;
  g.__preheatJobs = undefined;
  await jobs?.stop();
}
