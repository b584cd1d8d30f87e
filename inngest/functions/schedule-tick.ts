import { getDb } from "@/lib/db";
import { runJob } from "@/lib/worker/handlers";
import { inngest } from "../client";

/** The cron tick: every minute, start the scheduled boosts that are due (UTC). */
export const scheduleTickFunction = inngest.createFunction({ id: "schedule-tick", triggers: [{ cron: "TZ=UTC * * * * *" }], concurrency: [{ limit: 1 }], retries: 0 }, async ({ step }) =>
  step.run("start-due-boosts", async () => runJob("schedule.tick", {}, { db: await getDb(), final: true })),
);
