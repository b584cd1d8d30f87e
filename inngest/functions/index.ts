import { processSitemapFunction } from "./process-sitemap";
import {
  deliverEmailFunction,
  deliverWebhookFunction,
  planRunFunction,
  readRobotsFunction,
  readTrafficFunction,
  recheckOwnershipFunction,
  runEndedFunction,
  sitemapEndedFunction,
  warmBatchFunction,
} from "./runs";
import { keepWarmTickFunction, scheduleTickFunction } from "./schedule-tick";

export const functions = [
  processSitemapFunction,
  planRunFunction,
  warmBatchFunction,
  runEndedFunction,
  sitemapEndedFunction,
  deliverEmailFunction,
  deliverWebhookFunction,
  recheckOwnershipFunction,
  readRobotsFunction,
  readTrafficFunction,
  scheduleTickFunction,
  keepWarmTickFunction,
];
