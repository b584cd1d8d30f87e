import { getDb } from "@/lib/db";
import { type JobName, jobDefinitions } from "@/lib/jobs";
import { runJob } from "@/lib/worker/handlers";
import { eventName, inngest } from "../client";

/**
 * An Inngest function for one unit of work: one step calling the same handler as the embedded
 * worker, with retries from the job's definition and per-site concurrency (politeness).
 */
export function jobFunction(name: JobName, id: string, options: { siteConcurrency: number }) {
  const definition = jobDefinitions[name];
  return inngest.createFunction(
    {
      id,
      triggers: [{ event: eventName(name) }],
      concurrency: [{ key: "event.data.siteId", limit: options.siteConcurrency }],
      retries: definition.retryLimit,
    },
    async ({ event, step, attempt, maxAttempts }) => step.run(id, async () => runJob(name, event.data, { db: await getDb(), final: attempt + 1 >= (maxAttempts ?? definition.retryLimit + 1) })),
  );
}
