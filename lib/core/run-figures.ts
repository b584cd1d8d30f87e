import { z } from "zod";
import { ADVICE_CODES } from "./advice-codes";
import { BLOCK_VENDORS } from "./block-vendors";
import { NOT_CACHED_ADVICE, NOT_CACHED_REASONS } from "./not-cached";
import { timestamp } from "./primitives";
import { egressSchema, regionCodeOutput } from "./regions";
import { RUN_STATUSES } from "./run-status";
import { variantFields } from "./variations";
import { VISITOR_PROFILES } from "./visitor-profiles";

/** What a run found, as the API, the database's JSON columns and the dashboard name it: one declaration each. */

export const runStatusSchema = z.enum(RUN_STATUSES).meta({
  id: "RunStatus",
  description:
    "`pending` (queued) → `running` → `done` (every planned call made) | `failed` (the run could not be planned or carried out, or bot protection blocked at least 20 of its first 30 calls: see status_message) | `paused` (stopped after a high error rate; the boost pauses too). `pending` can also end directly in `failed`.",
});

export const notCachedReasonSchema = z.enum(NOT_CACHED_REASONS).meta({
  id: "NotCachedReason",
  description: `Why a call did not end as a cache hit: the first that applies, in this order. ${NOT_CACHED_REASONS.map((r) => `\`${r}\`: ${NOT_CACHED_ADVICE[r].advice}`).join(" ")}`,
});

export const blockVendorSchema = z.enum(BLOCK_VENDORS).meta({
  id: "BlockVendor",
  description:
    "The bot protection that answered a call instead of the site, read from its documented fingerprints (/docs/site-owners/cache-detection): `cloudflare`, `akamai`, `imperva`, `datadome`, `sucuri`, `aws_waf`, `vercel`, `human` (HUMAN Security, formerly PerimeterX), `other` (a captcha page on a 403 or 429).",
});

const visitorFiguresSchema = z
  .object({
    profile: z.enum(VISITOR_PROFILES).meta({ description: "The standard visitor: `chrome_desktop`, `chrome_android`, `safari_ios`, `firefox`, `googlebot_smartphone`." }),
    label: z.string().meta({ description: "Its name for people, e.g. `Chrome Android`." }),
    urls: z.number().int().meta({ description: "URLs it asked for (in every region): each visitor asks for different URLs of the run, so that no visitor's miss fills the cache for another." }),
    requests: z.number().int().meta({ description: "Its requests made so far: each of its URLs once per region and cookie set." }),
    hits: z.number().int().meta({ description: "Of those, the ones the cache answered as a hit." }),
    cause: z.string().nullable().meta({
      description:
        'When it missed: the likely cause, read from what was warmed and what the site answered (e.g. "the cache likely keys on the encoding: it asks for zstd, which was not warmed"); null when every request hit or none was made.',
    }),
  })
  .meta({ id: "VisitorFigures", description: "What one standard visitor got from the cache after the run's warm." });

const adviceSchema = z
  .object({
    code: z.enum(ADVICE_CODES).meta({
      description:
        "`vary_accept_language`: answers vary on Accept-Language and one language was warmed; `vary_user_agent`: answers vary on User-Agent; `vary_cookie`: answers vary on Cookie; `set_cookie`: a cookie is set on most pages and no cookie set carries it; `variant_never_hits`: a variant never hit while the others did; `visitors_missed`: a standard visitor of the visitor check missed; `blocked`: bot protection answered calls.",
    }),
    message: z.string().meta({ description: "What to change, in a sentence." }),
  })
  .meta({ id: "Advice", description: "A dimension the run likely missed, read from the site's answers and the run's figures." });

export type Advice = z.infer<typeof adviceSchema>;

export type VisitorFigures = z.infer<typeof visitorFiguresSchema>;

export const summarySchema = z
  .object({
    total_calls: z.number().int(),
    successful_calls: z.number().int(),
    failed_calls: z.number().int(),
    cache_hits: z.number().int(),
    average_response_time_ms: z.number(),
    pops: z.record(z.string(), z.number().int()).meta({ description: "Point-of-presence code (IATA-style, upper case) → calls it served." }),
    not_cached: z.partialRecord(notCachedReasonSchema, z.number().int()).meta({
      description: "Calls that did not end as a cache hit, by reason (reasons with no call are left out): with `cache_hits`, every call made.",
    }),
    blocked_by: z.partialRecord(blockVendorSchema, z.number().int()).meta({
      description:
        "Calls answered by bot protection (reason `blocked`), by vendor (vendors with no call are left out). When at least 20 of a run's first 30 calls are blocked, the run stops: `failed`, its `status_message` naming the vendor.",
    }),
    cache_misses: z.number().int().meta({ description: "Calls whose reason is `miss`: the cache did not have the page and will keep it (warm from now on)." }),
    average_hit_response_time_ms: z.number().nullable().meta({ description: "Average response time of the cache hits; null when there were none." }),
    average_miss_response_time_ms: z
      .number()
      .nullable()
      .meta({ description: "Average response time of the cacheable misses (`cache_misses`); null when there were none. Against the hits' average: what warming saves a visitor." }),
    verified: z
      .object({
        calls: z.number().int().meta({ description: "Cacheable misses requested once more (verification calls made so far)." }),
        hits: z.number().int().meta({ description: "Of those, the ones the cache answered as a hit: misses warming turned into hits." }),
      })
      .nullable()
      .meta({
        description:
          "With `verify`: after the run's calls, each cacheable miss (`cache_misses`, up to the results a run keeps) is requested once more, same URL, variant and region, after PREHEAT_VERIFY_DELAY_SECONDS (5 s by default). These calls are counted here, apart: not in `total_calls`, nor in the monthly quota. null without `verify`.",
      }),
    visitors: z.array(visitorFiguresSchema).nullable().meta({
      description:
        "With `verify: \"visitors\"`: after the run's calls (and PREHEAT_VERIFY_DELAY_SECONDS), a sample of its URLs in each region is requested once by each standard visitor, as its browser sends them, with the run's cookies, cookie sets and Basic auth (not its extra headers), and the Preheat-Verification header so that firewalls let them through. Up to PREHEAT_VISITOR_CHECK_URLS (20) URLs per visitor and region, at most 500 requests per region. Counted here, apart: not in `total_calls`, nor in the quota. A visitor's miss fills the cache like a visitor's would. null without a visitor check.",
    }),
    advice: z.array(adviceSchema).meta({ description: "What the run likely missed and what to change, most useful first; empty when nothing stands out." }),
  })
  .meta({ id: "Summary", description: "Totals over the calls made so far; updated while the run is in progress." });

export type Summary = z.infer<typeof summarySchema>;

export const progressSchema = z
  .object({
    planned_calls: z.number().int().meta({ description: "Calls the run will make; 0 until a boost run is planned." }),
    completed_calls: z.number().int(),
  })
  .meta({ id: "RunProgress" });

const regionPopSchema = z
  .object({
    pop: z.string().meta({ description: "Point-of-presence code as the CDN names it (upper case)." }),
    calls: z.number().int(),
    country: z.string().nullable().meta({ description: "ISO 3166-1 country of the PoP; null when the code is not in Preheat's table of PoPs." }),
    continent: z.enum(["EU", "NA", "SA", "AS", "AF", "OC"]).nullable(),
    in_region: z.boolean().nullable().meta({ description: "Whether the PoP serves the region's visitors; null when its place is unknown." }),
  })
  .meta({ id: "RegionPop", description: "One point of presence that answered a region's calls, and where it is." });

export const regionBreakdownSchema = z
  .object({
    region: regionCodeOutput,
    total_calls: z.number().int(),
    successful_calls: z.number().int(),
    failed_calls: z.number().int(),
    cache_hits: z.number().int(),
    bypassed_calls: z.number().int().meta({ description: "Calls whose reason is `cdn_bypass` (BYPASS, DYNAMIC, PASS on an otherwise cacheable answer): these calls warmed nothing." }),
    average_response_time_ms: z.number(),
    egress: egressSchema.meta({
      description:
        "How this region's calls left: the egress most of them used (a run's calls may change egress when a region's worker starts or stops). Before any call is recorded, how they would leave now.",
    }),
    pops: z.array(regionPopSchema).meta({ description: "The points of presence that answered this region's calls, most calls first." }),
    reached: z.enum(["in_region", "elsewhere", "unknown"]).meta({
      description:
        "Whether the calls reached the region's own PoPs: `in_region` when most calls whose PoP is known were answered inside the region (its country; its continent for eu and as), `elsewhere` when most were answered outside it (the region's visitors' PoPs were not warmed: the run's `status_message` says so), `unknown` when no answer named a PoP Preheat can place (no CDN PoP header, Akamai, or an unlisted code).",
    }),
  })
  .meta({ id: "RegionBreakdown", description: "The calls made from one region so far." });

export type RegionBreakdown = z.infer<typeof regionBreakdownSchema>;

export const failureSampleSchema = z
  .object({
    url: z.string(),
    region: z.string(),
    user_agent: variantFields.user_agent,
    language: z.string().nullable().meta({ description: "Accept-Language sent; null when none." }),
    status: z.number().int().nullable().meta({ description: "HTTP status answered; null when no answer came (network error, timeout)." }),
    error: z.string(),
  })
  .meta({ id: "FailureSample", description: "One failed call, as recorded." });

export const popBreakdownSchema = z
  .object({
    pop: z.string().meta({ description: "Point-of-presence code (IATA-style, upper case)." }),
    calls: z.number().int(),
    hits: z.number().int(),
    average_hit_response_time_ms: z.number().nullable().meta({ description: "null when the PoP served no hit." }),
    average_miss_response_time_ms: z.number().nullable().meta({ description: "Over its cacheable misses; null when it had none." }),
  })
  .meta({ id: "PopBreakdown", description: "The calls one PoP answered: how many hit, and how fast hits and misses were." });

export type PopBreakdown = z.infer<typeof popBreakdownSchema>;

export const variantBreakdownSchema = z
  .object({ ...variantFields, calls: z.number().int(), hits: z.number().int() })
  .meta({ id: "VariantBreakdown", description: "The calls of one variant (every region together) and how many were cache hits." });

export type VariantBreakdown = z.infer<typeof variantBreakdownSchema>;

export const slowdownSchema = z
  .object({
    at: timestamp,
    reason: z.string().meta({
      description: "Why the engine changed pace: the site slowed down (median response time of the last 50 calls over 3 × that of the first 50), answered 429/503 with Retry-After, or recovered.",
    }),
    concurrency: z.number().int().meta({ description: "The calls the run keeps in flight to the site from then on." }),
  })
  .meta({ id: "Slowdown", description: "A change of pace the engine made on its own: the window halves when the site slows down, and grows back by one call when it recovers." });

/** A change of pace the engine made on its own: the window it now keeps open, and why. */
export type Slowdown = z.infer<typeof slowdownSchema>;
export type FailureSample = z.infer<typeof failureSampleSchema>;
