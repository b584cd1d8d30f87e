import { type JobName, type JobPayload, jobDefinitions } from "@/lib/jobs";
import { logger } from "@/lib/observability/log";
import { metrics } from "@/lib/observability/metrics";
import { type JobContext, type JobHandler, RetryLaterError } from "./job-handler";
import { emailDeliver } from "./jobs/email-deliver";
import { keepWarmTick } from "./jobs/keep-warm-tick";
import { ownershipRecheck } from "./jobs/ownership-recheck";
import { runBatch } from "./jobs/run-batch";
import { runEnded } from "./jobs/run-ended";
import { runPlan } from "./jobs/run-plan";
import { scheduleTick } from "./jobs/schedule-tick";
import { siteRobots } from "./jobs/site-robots";
import { sitemapEnded } from "./jobs/sitemap-ended";
import { sitemapProcess } from "./jobs/sitemap-process";
import { trafficRead } from "./jobs/traffic-read";
import { webhookDeliver } from "./jobs/webhook-deliver";

/** The handlers both drivers call, each idempotent so that a retry never double-counts. */
const jobHandlers: { [N in JobName]?: JobHandler<N> } = {
  "sitemap.process": sitemapProcess,
  "run.plan": runPlan,
  "run.batch": runBatch,
  "run.ended": runEnded,
  "sitemap.ended": sitemapEnded,
  "email.deliver": emailDeliver,
  "ownership.recheck": ownershipRecheck,
  "site.robots": siteRobots,
  "schedule.tick": scheduleTick,
  "keep_warm.tick": keepWarmTick,
  "webhook.deliver": webhookDeliver,
  "traffic.read": trafficRead,
};

export function handledJobs(): JobName[] {
  return (Object.keys(jobDefinitions) as JobName[]).filter((name) => jobHandlers[name]);
}

/** Runs one job by its kind's handler; one log line and one count per job, whatever its outcome. */
export async function runJob<N extends JobName>(name: N, payload: unknown, ctx: JobContext): Promise<unknown> {
  const handler = jobHandlers[name] as JobHandler<N> | undefined;
  if (!handler) throw new Error(`No handler for job ${name}.`);
  const started = performance.now();
  const line = (outcome: "done" | "retry" | "failed") => {
    metrics().jobs.inc({ job: name, outcome });
    return { job: name, payload, outcome, final_attempt: ctx.final, duration_ms: Math.round(performance.now() - started) };
  };
  try {
    const result = await handler(jobDefinitions[name].payload.parse(payload) as JobPayload<N>, ctx);
    logger().info(line("done"), "job");
    return result;
  } catch (error) {
    if (error instanceof RetryLaterError) logger().info(line("retry"), "job");
    else logger().error({ ...line("failed"), err: error }, "job");
    throw error;
  }
}
