import { z } from "zod";
import { setting } from "@/lib/config";

/** The most calls at once any site may ask for (PREHEAT_SITE_MAX_CONCURRENCY, default 16): the operator's ceiling. */
export function maxSiteConcurrency(): number {
  return setting("PREHEAT_SITE_MAX_CONCURRENCY");
}

/** Calls at once for a site that has not chosen (PREHEAT_SITE_CONCURRENCY, default 4), within the ceiling. */
export function defaultSiteConcurrency(): number {
  return Math.min(setting("PREHEAT_SITE_CONCURRENCY"), maxSiteConcurrency());
}

/** The one rule for a site's concurrency: its own choice, or the default, never above the operator's ceiling. */
export function siteConcurrency(site: { maxConcurrency: number | null }): number {
  return Math.min(site.maxConcurrency ?? defaultSiteConcurrency(), maxSiteConcurrency());
}

/**
 * The one rule for a site's pace (calls started a second, service-wide; null: no cap): its owner's
 * choice; else the Crawl-delay its robots.txt asks of Preheat, one call per delay. A validated
 * site's owner may override the Crawl-delay by choosing a pace; on a site not validated, the slower
 * of the two holds (anyone may register any domain).
 */
export function sitePace(site: { maxRequestsPerSecond: number | null; crawlDelaySeconds: number | null; validated: boolean }): number | null {
  const robots = site.crawlDelaySeconds ? 1 / site.crawlDelaySeconds : null;
  if (site.maxRequestsPerSecond === null) return robots;
  if (site.validated || robots === null) return site.maxRequestsPerSecond;
  return Math.min(site.maxRequestsPerSecond, robots);
}

const MAX_REQUESTS_PER_SECOND = 1000;

export const updateSiteBody = z
  .object({
    max_concurrency: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .refine((value) => value <= maxSiteConcurrency(), { error: () => `must be at most ${maxSiteConcurrency()}, the most this service sends any site at once` })
      .nullable()
      .optional()
      .meta({
        description:
          "Warming calls sent to the site at once, by the whole service (every worker, run and region): 1 to the operator's maximum (PREHEAT_SITE_MAX_CONCURRENCY, 16 by default). null: the service default (PREHEAT_SITE_CONCURRENCY, 4).",
      }),
    max_requests_per_second: z
      .number()
      .positive("must be more than 0")
      .max(MAX_REQUESTS_PER_SECOND, `must be at most ${MAX_REQUESTS_PER_SECOND}`)
      .nullable()
      .optional()
      .meta({ description: "Warming calls started per second at most (decimals allowed: 0.5 is one call every 2 s); null: no rate cap." }),
    change_boost_id: z.number().int("must be a boost id").positive("must be a boost id").nullable().optional().meta({
      description:
        "The site's change profile: a boost of this site whose variants and regions warm its changes (POST /v1/sites/{siteId}/changes, the change receivers), and which deploy notifications run. null: a warm's defaults (desktop, `fr`), and deploys warm nothing.",
    }),
  })
  .meta({ id: "UpdateSiteRequest", description: "Only the fields supplied change." });

export type UpdateSiteInput = z.output<typeof updateSiteBody>;
