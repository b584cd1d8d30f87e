import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

const instant = z.string().datetime({ offset: true, message: "An ISO 8601 date and time." });

/** `GET /v1/sites/{siteId}/freshness`: the period, the last 7 days by default. */
export const siteFreshnessQuery = z.object({
  from: instant.optional().meta({ description: "Start (ISO 8601); its hour is the first one answered. 7 days before `to` when omitted." }),
  to: instant.optional().meta({ description: "End (ISO 8601); now when omitted. At most 31 days after `from` (422 beyond). Only hours that have ended are answered." }),
});

const regionFreshnessSchema = z.object({
  region: z.string(),
  urls_known: z.number().int(),
  urls_fresh: z.number().int(),
});

const freshnessHourSchema = z.object({
  hour: timestamp.meta({ description: "The hour's start (UTC)." }),
  urls_known: z.number().int().meta({ description: "The site's entries (URL × variant × region) Preheat had an answer for within the 32 days before the hour's end." }),
  urls_fresh: z.number().int().meta({
    description:
      "Of `urls_known`, those whose last answer before the hour's end was still fresh for a shared cache at the hour's end (its `fresh_until` later than the hour's end): Preheat's reading of the CDN's answers, not visitors' hits.",
  }),
  calls: z.number().int().meta({ description: "Warming calls recorded in the hour (the runs' `calls`; verification and visitor-check calls apart)." }),
  hits: z.number().int().meta({ description: "Of `calls`, the cache hits." }),
  visitor_check_calls: z.number().int().nullable().meta({ description: "Visitor-check calls recorded in the hour; null when there were none." }),
  visitor_check_hits: z.number().int().nullable().meta({ description: "Of `visitor_check_calls`, the cache hits; null when there were none." }),
  regions: z.array(regionFreshnessSchema).meta({ description: "`urls_known` and `urls_fresh` per region, for the regions with an entry known." }),
});

export const siteFreshnessSchema = z
  .object({
    site_id: z.number().int(),
    from: timestamp.meta({ description: "The first hour answered: the hour of `from`, or the first hour kept when the runs' retention has dropped older ones." }),
    to: timestamp.meta({ description: "The end of the last hour answered." }),
    fresh_share: z.number().nullable().meta({ description: "Σ `urls_fresh` / Σ `urls_known` over the hours: the share of the pages fresh, hour ends counted alike. null when none was known." }),
    hours: z.array(freshnessHourSchema),
  })
  .meta({ id: "SiteFreshness" });

export type SiteFreshness = z.infer<typeof siteFreshnessSchema>;
