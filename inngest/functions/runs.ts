import { jobFunction } from "./job-function";

export const planRunFunction = jobFunction("run.plan", "plan-run", { key: "event.data.siteId", limit: 1 });
/** One batch at a time per site: each batch already makes PREHEAT_SITE_CONCURRENCY calls at once. */
export const warmBatchFunction = jobFunction("run.batch", "warm-batch", { key: "event.data.siteId", limit: 1 });

/** What follows a run's end, and a sitemap read's: one at a time per run or sitemap. */
export const runEndedFunction = jobFunction("run.ended", "run-ended", { key: "event.data.runId", limit: 1 });
export const sitemapEndedFunction = jobFunction("sitemap.ended", "sitemap-ended", { key: "event.data.sitemapId", limit: 1 });

/** An e-mail is sent by one attempt at a time. */
export const deliverEmailFunction = jobFunction("email.deliver", "deliver-email", { key: "event.data.emailId", limit: 1 });

/** A webhook's receiver gets at most four deliveries at once. */
export const deliverWebhookFunction = jobFunction("webhook.deliver", "deliver-webhook", { key: "event.data.webhookId", limit: 4 });

/** One recheck of a site's ownership proof at a time. */
export const recheckOwnershipFunction = jobFunction("ownership.recheck", "recheck-ownership", { key: "event.data.siteId", limit: 1 });
/** One read of a site's robots.txt at a time. */
export const readRobotsFunction = jobFunction("site.robots", "read-robots", { key: "event.data.siteId", limit: 1 });
/** One read of a traffic source at a time. */
export const readTrafficFunction = jobFunction("traffic.read", "read-traffic", { key: "event.data.sourceId", limit: 1 });
