import { jobFunction } from "./job-function";

/** A site's sitemaps are read one at a time. */
export const processSitemapFunction = jobFunction("sitemap.process", "process-sitemap", { key: "event.data.siteId", limit: 1 });
