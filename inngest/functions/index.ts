import { processSitemapFunction } from "./process-sitemap";
import { deliverEmailFunction, deliverWebhookFunction, planRunFunction, recheckOwnershipFunction, warmBatchFunction } from "./runs";
import { scheduleTickFunction } from "./schedule-tick";

export const functions = [processSitemapFunction, planRunFunction, warmBatchFunction, deliverEmailFunction, deliverWebhookFunction, recheckOwnershipFunction, scheduleTickFunction];
