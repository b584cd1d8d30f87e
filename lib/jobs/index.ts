import { z } from "zod";
import { setting } from "@/lib/config";
import { regionCodeOutput } from "@/lib/core/regions";

/** Inngest takes the work when it is configured (Cloud with an event key, or a dev/self-hosted server). */
export function inngestConfigured(): boolean {
  return Boolean(setting("INNGEST_EVENT_KEY") || setting("INNGEST_DEV"));
}

const id = z.number().int().positive();

/** The units of background work (DESIGN.md, "Units of work"): payloads and retry policy, for both drivers. */
export const jobDefinitions = {
  "sitemap.process": { payload: z.object({ sitemapId: id, siteId: id }), retryLimit: 4, retryDelaySeconds: 15, expireInSeconds: 900 },
  "run.plan": { payload: z.object({ runId: id, siteId: id }), retryLimit: 4, retryDelaySeconds: 15, expireInSeconds: 900 },
  /**
   * Warms one region of the run for a while (lib/runs/warm-loop.ts, with every other run of the
   * worker), then queues itself again until that region is done. One per region, so that a
   * regional worker takes its region's calls only.
   */
  "run.batch": { payload: z.object({ runId: id, siteId: id, region: regionCodeOutput }), retryLimit: 4, retryDelaySeconds: 15, expireInSeconds: 900 },
  /** Sends one report e-mail; its failures are retried and never touch the run. */
  "email.deliver": { payload: z.object({ emailId: id, siteId: id.optional() }), retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 120 },
  /** Looks for a validated site's ownership proof again (lib/sites/recheck.ts), queued by the cron tick. */
  "ownership.recheck": { payload: z.object({ siteId: id }), retryLimit: 2, retryDelaySeconds: 300, expireInSeconds: 120 },
  /** What follows a run's end (lib/worker/after-run-end.ts): its webhook event, its boost's report e-mail and follow-up run; sent each time a job sees the run ended, idempotent. */
  "run.ended": { payload: z.object({ runId: id }), retryLimit: 4, retryDelaySeconds: 15, expireInSeconds: 300 },
  /** What follows a sitemap's read: its webhook event (sitemap.processed or sitemap.failed). */
  "sitemap.ended": { payload: z.object({ sitemapId: id }), retryLimit: 4, retryDelaySeconds: 15, expireInSeconds: 300 },
  /** Reads a site's robots.txt for its Crawl-delay (lib/sites/crawl-delay.ts), queued when a keep-warm run opens: off the keep-warm tick's path. */
  "site.robots": { payload: z.object({ siteId: id, origin: z.string().url() }), retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 60 },
  /** Reads a traffic source Preheat fetches (lib/traffic/read.ts): a failure is said on the source, and the next scheduled read tries again. */
  "traffic.read": { payload: z.object({ sourceId: id, siteId: id }), retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 1_200 },
  "schedule.tick": { payload: z.object({}), retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 120 },
  /**
   * Claims the keep-warm entries that are due, every second for a few seconds, then queues itself again
   * (ADR 0010); the minute's cron tick queues it too, so that a chain lost with its worker starts again.
   */
  "keep_warm.tick": { payload: z.object({}), retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 120 },
  /** Delivers one webhook event; its retries span about a day (webhookRetryPolicy), its attempts are kept. */
  "webhook.deliver": { payload: z.object({ messageId: id, webhookId: id }), retryLimit: 10, retryDelaySeconds: 60, expireInSeconds: 120 },
} as const;

export type JobName = keyof typeof jobDefinitions;

/** A day's worth of retries: pg-boss waits base × 2^n × (1 to 2) before retry n + 1, so n retries take about 1.5 × base × (2^n − 1). */
const WEBHOOK_RETRY_SPAN_SECONDS = 86_400;

/**
 * How often and how soon a failed job is tried again. Webhook deliveries start from
 * PREHEAT_WEBHOOK_RETRY_BASE_SECONDS and retry for about a day; other jobs from their definition,
 * or PREHEAT_JOB_RETRY_DELAY_SECONDS (tests, operators).
 */
export function jobRetryPolicy(name: JobName): { retryLimit: number; retryDelaySeconds: number } {
  if (name === "webhook.deliver") {
    const base = setting("PREHEAT_WEBHOOK_RETRY_BASE_SECONDS");
    const retries = Math.ceil(Math.log2(WEBHOOK_RETRY_SPAN_SECONDS / (1.5 * base) + 1));
    return { retryLimit: Math.min(Math.max(retries, 1), 16), retryDelaySeconds: base };
  }
  const definition = jobDefinitions[name];
  return { retryLimit: definition.retryLimit, retryDelaySeconds: setting("PREHEAT_JOB_RETRY_DELAY_SECONDS") ?? definition.retryDelaySeconds };
}

/** How long a job may run before it counts as lost: PREHEAT_JOB_EXPIRE_SECONDS (tests, operators), or the job's own. */
export function jobExpireSeconds(name: JobName): number {
  return setting("PREHEAT_JOB_EXPIRE_SECONDS") ?? jobDefinitions[name].expireInSeconds;
}
export type JobPayload<N extends JobName> = z.output<(typeof jobDefinitions)[N]["payload"]>;

/** One job per record at a time: the key pg-boss deduplicates on, and Inngest's idempotency key. */
export function jobKey<N extends JobName>(name: N, payload: JobPayload<N>): string {
  const record =
    "messageId" in payload
      ? payload.messageId
      : "sitemapId" in payload
        ? payload.sitemapId
        : "region" in payload
          ? `${payload.runId}:${payload.region}`
          : "runId" in payload
            ? payload.runId
            : "emailId" in payload
              ? payload.emailId
              : "siteId" in payload
                ? payload.siteId
                : "tick";
  return `${name}:${record}`;
}

export interface JobDriver {
  send<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void>;
  /** Jobs this process took without queueing them (the embedded database), by queue: no queue table lists them. */
  heldInProcess?(): Record<string, number>;
}

/**
 * Before a driver is installed (the CLI, tests of the domain alone), events are not delivered:
 * the records they are about (a `waiting` sitemap, a `pending` run) are durable, and a starting
 * worker queues every such record again, so nothing accepted is lost.
 */
const recordOnlyDriver: JobDriver = {
  async send() {},
};

type Global = typeof globalThis & { __preheatJobDriver?: JobDriver };

export function installJobDriver(driver: JobDriver | undefined): void {
  (globalThis as Global).__preheatJobDriver = driver;
}

/** Jobs held in this process that no queue table lists, by queue, for the queue figures. */
export function jobsHeldInProcess(): Record<string, number> {
  return (globalThis as Global).__preheatJobDriver?.heldInProcess?.() ?? {};
}

export async function sendJob<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void> {
  const parsed = jobDefinitions[name].payload.parse(payload) as JobPayload<N>;
  await ((globalThis as Global).__preheatJobDriver ?? recordOnlyDriver).send(name, parsed);
}
