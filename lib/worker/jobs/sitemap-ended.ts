import { announceSitemapEnd } from "@/lib/webhooks/events";
import type { JobHandler } from "../job-handler";

/** A sitemap read has ended: its webhook event (sitemap.processed or sitemap.failed). */
export const sitemapEnded: JobHandler<"sitemap.ended"> = async ({ sitemapId }, { db }) => {
  await announceSitemapEnd(db, sitemapId);
};
