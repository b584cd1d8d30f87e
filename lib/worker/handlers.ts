import { type JobName, type JobPayload, jobDefinitions } from "@/lib/jobs";
import type { JobContext, JobHandler } from "./job-handler";
import { emailDeliver } from "./jobs/email-deliver";
import { runBatch } from "./jobs/run-batch";
import { runPlan } from "./jobs/run-plan";
import { scheduleTick } from "./jobs/schedule-tick";
import { sitemapProcess } from "./jobs/sitemap-process";


/** The handlers both drivers call, each idempotent so that a retry never double-counts. */
export const jobHandlers: { [N in JobName]?: JobHandler<N> } = {
  "sitemap.process": sitemapProcess,
  "run.plan": runPlan,
  "run.batch": runBatch,
  "email.deliver": emailDeliver,
  "schedule.tick": scheduleTick,
};

export function handledJobs(): JobName[] {
  return (Object.keys(jobDefinitions) as JobName[]).filter((name) => jobHandlers[name]);
}

export async function runJob<N extends JobName>(name: N, payload: unknown, ctx: JobContext): Promise<unknown> {
  const handler = jobHandlers[name] as JobHandler<N> | undefined;
  if (!handler) throw new Error(`No handler for job ${name}.`);
  return handler(jobDefinitions[name].payload.parse(payload) as JobPayload<N>, ctx);
}
