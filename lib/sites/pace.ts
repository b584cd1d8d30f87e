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
  })
  .meta({ id: "UpdateSiteRequest", description: "Only the fields supplied change." });

export type UpdateSiteInput = z.output<typeof updateSiteBody>;
