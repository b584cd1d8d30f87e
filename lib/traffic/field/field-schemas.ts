import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";
import { DEVICE_CLASSES } from "@/lib/core/traffic";

const instant = z.string().datetime({ offset: true, message: "An ISO 8601 date and time." });

/** `GET /v1/sites/{siteId}/field`: the period, the last 24 hours by default. */
export const siteFieldQuery = z.object({
  from: instant.optional().meta({ description: "Start (ISO 8601); its hour is the first one answered. 24 hours before `to` when omitted (the last 24 hours, the one going on included)." }),
  to: instant
    .optional()
    .meta({ description: "End (ISO 8601); the end of the hour going on when omitted. At most 31 days after `from` (422 beyond). The hour going on is answered too: its figures still grow." }),
});

const TTFB_PRECISION = "Read from buckets 5 % wide: within 2.5 % of the visitors' own figure.";

/** The figures of a set of page views: what each hour, device and PoP region answers. */
const fieldFiguresShape = {
  views: z.number().int().meta({ description: "Page views counted (sampled: divide by `sample_rate` for an estimate of all views)." }),
  hits: z.number().int().meta({ description: "Of `views`, those the CDN (or cache) answered from cache: a hit, a stale copy, or one revalidated with a 304." }),
  misses: z.number().int().meta({ description: "Of `views`, those the CDN sent to the origin: a miss, an expired copy, or a response it does not cache (pass, bypass, dynamic)." }),
  unknown: z.number().int().meta({ description: "Of `views`, those whose Server-Timing named no verdict (/docs/site-owners/beacon says how to have the CDN send one)." }),
  hit_ratio: z.number().nullable().meta({ description: "`hits` / (`hits` + `misses`); null when neither." }),
  ttfb_p50_ms: z
    .number()
    .int()
    .nullable()
    .meta({ description: `The median time to first byte the visitors' browsers measured, in ms; null without any. ${TTFB_PRECISION}` }),
  ttfb_p75_ms: z
    .number()
    .int()
    .nullable()
    .meta({ description: `The 75th percentile of the time to first byte, in ms; null without any. ${TTFB_PRECISION}` }),
};

const fieldFiguresSchema = z.object(fieldFiguresShape).meta({ id: "FieldFigures" });

export const siteFieldSchema = z
  .object({
    site_id: z.number().int(),
    from: timestamp.meta({ description: "The first hour answered (its start)." }),
    to: timestamp.meta({ description: "The end of the period answered." }),
    sample_rate: z.number().meta({ description: "The share of page views counted (PREHEAT_BEACON_SAMPLE, now): views are counts of the sample; ratios and percentiles need no correction." }),
    beacon_key: z.string().meta({ description: "The site's beacon key, the `data-site` of its script tag (the site object's `beacon_key`)." }),
    script_tag: z.string().meta({ description: "The tag to paste into the site's pages (/docs/site-owners/beacon)." }),
    totals: fieldFiguresSchema.meta({ description: "The period's figures." }),
    hours: z
      .array(z.object({ hour: timestamp.meta({ description: "The hour's start (UTC)." }), ...fieldFiguresShape }))
      .meta({ description: "Every hour of the period, oldest first, those without a view included." }),
    devices: z
      .array(z.object({ device: z.enum(DEVICE_CLASSES), ...fieldFiguresShape }))
      .meta({ description: "The period's figures per device class (the beacon's: mobile, tablet or desktop), those with views only." }),
    pop_regions: z
      .array(z.object({ country: z.string().meta({ description: "The country (ISO 3166-1 alpha-2) of the PoP the CDN named in Server-Timing (`cdn-pop`)." }), ...fieldFiguresShape }))
      .meta({
        description: "The period's figures per country of the CDN's PoP, for the views whose Server-Timing named a PoP Preheat knows; most views first.",
      }),
  })
  .meta({ id: "SiteField" });

export type SiteField = z.infer<typeof siteFieldSchema>;
