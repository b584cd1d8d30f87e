import { processSitemapFunction } from "./process-sitemap";
import { planRunFunction, warmBatchFunction } from "./runs";
import { scheduleTickFunction } from "./schedule-tick";

export const functions = [processSitemapFunction, planRunFunction, warmBatchFunction, scheduleTickFunction];
