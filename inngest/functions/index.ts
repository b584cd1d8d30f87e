import { processSitemapFunction } from "./process-sitemap";
import { scheduleTickFunction } from "./schedule-tick";

export const functions = [processSitemapFunction, scheduleTickFunction];
