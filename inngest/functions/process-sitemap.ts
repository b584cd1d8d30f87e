import { getDb } from "@/lib/db";
import { runJob } from "@/lib/jobs/handlers";
import { jobDefinitions } from "@/lib/jobs";
import { eventName, inngest } from "../client";

const definition = jobDefinitions["sitemap.process"];

export const processSitemapFunction = inngest.createFunction(
  {
    id: "process-sitemap",
    triggers: [{ event: eventName("sitemap.process") }],
    // Politeness: a site's sitemaps are read one at a time.
    concurrency: [{ key: "event.data.siteId", limit: 1 }],
    retries: definition.retryLimit,
  },
  async ({ event, step, attempt, maxAttempts }) =>
    step.run("process-sitemap", async () =>
      runJob("sitemap.process", event.data, { db: await getDb(), final: attempt + 1 >= (maxAttempts ?? definition.retryLimit + 1) }),
    ),
);
