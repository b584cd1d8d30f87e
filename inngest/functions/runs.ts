import { jobFunction } from "./job-function";

export const planRunFunction = jobFunction("run.plan", "plan-run", { siteConcurrency: 1 });
/** One batch at a time per site: each batch already makes PREHEAT_SITE_CONCURRENCY calls at once. */
export const warmBatchFunction = jobFunction("run.batch", "warm-batch", { siteConcurrency: 1 });

export const deliverEmailFunction = jobFunction("email.deliver", "deliver-email", { siteConcurrency: 4 });
