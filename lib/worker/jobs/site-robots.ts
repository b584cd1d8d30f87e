import { refreshCrawlDelay } from "@/lib/sites/crawl-delay";
import type { JobHandler } from "../job-handler";

/** Reads the site's robots.txt for its Crawl-delay (at most once a day: refreshCrawlDelay claims it first). */
export const siteRobots: JobHandler<"site.robots"> = async ({ siteId, origin }, { db }) => {
  await refreshCrawlDelay(db, siteId, origin);
  return {};
};
