import { getDb } from "@/lib/db";
import { runJob } from "@/lib/worker/handlers";
import { eventName, inngest } from "../client";

/** The cron tick: every minute, start the scheduled boosts that are due (UTC). */
export const scheduleTickFunction = inngest.createFunction({ id: "schedule-tick", triggers: [{ cron: "TZ=UTC * * * * *" }], concurrency: [{ limit: 1 }], retries: 0 }, async ({ step }) =>
  step.run("start-due-boosts", async () => runJob("schedule.tick", {}, { db: await getDb(), final: true })),
);

/** The keep-warm tick (ADR 0010): one link of its chain at a time. */
export const keepWarmTickFunction = inngest.createFunction({ id: "keep-warm-tick", triggers: [{ event: eventName("keep_warm.tick") }], concurrency: [{ limit: 1 }], retries: 0 }, async ({ step }) =>
  step.run("warm-due-entries", async () => runJob("keep_warm.tick", {}, { db: await getDb(), final: true })),
);
