import { startDueBoosts } from "@/lib/boosts/schedule-tick";
import type { JobHandler } from "../job-handler";

/** The cron tick: starts the scheduled boosts that are due. */
export const scheduleTick: JobHandler<"schedule.tick"> = (_payload, { db }) => startDueBoosts(db);
