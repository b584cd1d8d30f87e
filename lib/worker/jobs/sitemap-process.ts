import { processSitemap } from "@/lib/sitemaps/process";
import { type JobHandler, RetryLaterError } from "../job-handler";

/** Reads a sitemap (index children, gzip, feeds) into its URL list; a transient failure is retried later. */
export const sitemapProcess: JobHandler<"sitemap.process"> = async ({ sitemapId }, { db, final }) => {
  // Conditional: a sitemap read before and unchanged since costs a 304.
  const outcome = await processSitemap(db, sitemapId, { final, conditional: true });
  if (outcome.status === "retry") throw new RetryLaterError(outcome.message);
  return outcome;
};
