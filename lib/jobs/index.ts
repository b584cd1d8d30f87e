import { z } from "zod";

/** The units of background work and their payloads (DESIGN.md, "Units of work"). */
export const jobPayloads = {
  "sitemap.process": z.object({ sitemapId: z.number().int().positive() }),
  "run.plan": z.object({ runId: z.number().int().positive() }),
} as const;

export type JobName = keyof typeof jobPayloads;
export type JobPayload<N extends JobName> = z.output<(typeof jobPayloads)[N]>;

export interface JobDriver {
  send<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void>;
}

/**
 * Until a driver is installed (embedded pg-boss or Inngest, chosen at start-up), events are not
 * delivered anywhere: the records they are about (a `waiting` sitemap, a `pending` run) are
 * durable, and a starting worker picks up every such record, so nothing accepted is lost.
 */
const recordOnlyDriver: JobDriver = {
  async send() {},
};

type Global = typeof globalThis & { __preheatJobDriver?: JobDriver };

export function installJobDriver(driver: JobDriver): void {
  (globalThis as Global).__preheatJobDriver = driver;
}

export async function sendJob<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void> {
  const parsed = jobPayloads[name].parse(payload) as JobPayload<N>;
  await ((globalThis as Global).__preheatJobDriver ?? recordOnlyDriver).send(name, parsed);
}
