import { getDb } from "@/lib/db";
import { type JobName, jobRetryPolicy } from "@/lib/jobs";
import { runJob } from "@/lib/worker/handlers";
import { eventName, inngest } from "../client";

/**
 * An Inngest function for one unit of work: one step calling the same handler as the embedded
 * worker, with retries from the job's definition and a concurrency limit per key (per site for
 * politeness, per webhook for its receiver).
 */
export function jobFunction(name: JobName, id: string, concurrency: { key: `event.data.${string}`; limit: number }) {
  const { retryLimit } = jobRetryPolicy(name);
  return inngest.createFunction(
    {
      id,
      triggers: [{ event: eventName(name) }],
      concurrency: [concurrency],
      // Inngest allows 20 retries at most.
      retries: Math.min(retryLimit, 20) as 20,
    },
    async ({ event, step, attempt, maxAttempts }) => step.run(id, async () => runJob(name, event.data, { db: await getDb(), final: attempt + 1 >= (maxAttempts ?? retryLimit + 1) })),
  );
}
