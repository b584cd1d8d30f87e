import { jobFunction } from "./job-function";

/** A site's sitemaps are read one at a time. */
export const processSitemapFunction = jobFunction("sitemap.process", "process-sitemap", { siteConcurrency: 1 });
