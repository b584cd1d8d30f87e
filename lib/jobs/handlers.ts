import { startDueBoosts } from "@/lib/boosts/schedule-tick";
import type { Database } from "@/lib/db";
import { processSitemap } from "@/lib/sitemaps/process";
import { deliverEmail } from "@/lib/email/send";
import { finishRun } from "@/lib/runs/finish";
import { reportRunEnd } from "@/lib/runs/report";
import { planRunOrFail } from "@/lib/runs/plan";
import { warmNextBatch } from "@/lib/runs/warm-batch";
import { type JobName, type JobPayload, jobDefinitions, sendJob } from "./index";

/** Thrown so that the driver retries the job later; the record already shows why. */
export class RetryLaterError extends Error {}

export type JobContext = { db: Database; /** true on the last attempt: failures are then final */ final: boolean };

type Handler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown>;

/** The handlers both drivers call, each idempotent so that a retry never double-counts. */
export const jobHandlers: { [N in JobName]?: Handler<N> } = {
  "sitemap.process": async ({ sitemapId }, { db, final }) => {
    const outcome = await processSitemap(db, sitemapId, { final });
    if (outcome.status === "retry") throw new RetryLaterError(outcome.message);
    return outcome;
  },
  "run.plan": async (payload, ctx) => {
    const outcome = await planRunOrFail(ctx.db, payload.runId, ctx.final);
    if (outcome.status === "planned") await sendJob("run.batch", payload);
    if (outcome.status === "done" || outcome.status === "failed") await reportRunEnd(ctx.db, payload.runId);
    return outcome;
  },
  "run.batch": async (payload, { db }) => {
    const next = await warmNextBatch(db, payload.runId);
    if (next === "more") await sendJob("run.batch", payload);
    if (next === "finished") await finishRun(db, payload.runId);
    // Ended here (done, failed) or paused: the boost's report, once (the outbox dedupes per run).
    if (next !== "more") await reportRunEnd(db, payload.runId);
    return { next };
  },
  "email.deliver": async ({ emailId }, { db, final }) => {
    const email = await deliverEmail(db, emailId, { final });
    return { status: email?.status };
  },
  "schedule.tick": async (_payload, { db }) => startDueBoosts(db),
};

export function handledJobs(): JobName[] {
  return (Object.keys(jobDefinitions) as JobName[]).filter((name) => jobHandlers[name]);
}

export async function runJob<N extends JobName>(name: N, payload: unknown, ctx: JobContext): Promise<unknown> {
  const handler = jobHandlers[name] as Handler<N> | undefined;
  if (!handler) throw new Error(`No handler for job ${name}.`);
  return handler(jobDefinitions[name].payload.parse(payload) as JobPayload<N>, ctx);
}
