import { processSitemapFunction } from "./process-sitemap";
import { deliverEmailFunction, deliverWebhookFunction, planRunFunction, warmBatchFunction } from "./runs";
import { scheduleTickFunction } from "./schedule-tick";

export const functions = [processSitemapFunction, planRunFunction, warmBatchFunction, deliverEmailFunction, deliverWebhookFunction, scheduleTickFunction];
