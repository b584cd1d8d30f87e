import { z } from "zod";
import { runVisitShareSchema } from "@/lib/core/traffic";
import { idString } from "@/lib/core/primitives";
import { timestamp } from "@/lib/core/primitives";
import { requestProfileValueSchema, variantFields, variationsValueSchema } from "@/lib/core/variations";
import { regionCodeOutput, regionCodeSchema } from "@/lib/core/regions";
import { unvalidatedLimitsSchema } from "@/lib/sites/unvalidated-limits";
import { runTriggerSchema } from "@/lib/core/run-trigger";

import {
  blockVendorSchema,
  failureSampleSchema,
  notCachedReasonSchema,
  popBreakdownSchema,
  progressSchema,
  regionBreakdownSchema,
  runStatusSchema,
  slowdownSchema,
  summarySchema,
  variantBreakdownSchema,
} from "@/lib/core/run-figures";

const runFields = {
  id: z.number().int(),
  number: z.number().int().min(1).meta({
    description:
      "The run's ordinal within its boost (1 for its first run, 2 for the next, in creation order), or, for a run without a boost (a warm, a site's changes), within its site's runs without a boost. The dashboard names a run by it (\"Run 2 of Nightly catalogue\"); the id stays the run's identifier, in every path and URL. Never reused: a run deleted by retention keeps its number taken.",
  }),
  status: runStatusSchema,
  status_message: z.string().nullable(),
  started_at: timestamp.nullable().meta({ description: "null while pending." }),
  finished_at: timestamp.nullable().meta({ description: "null until the run ends." }),
  summary: summarySchema,
  progress: progressSchema,
  created_at: timestamp,
  triggered_by: runTriggerSchema,
  visit_share: runVisitShareSchema.nullable(),
};

export const runListItemSchema = z.object({ boost_id: z.number().int(), ...runFields }).meta({ id: "Run", description: "A boost run as listed by GET /v1/runs." });

const runResultSchema = z
  .object({
    url: z.string(),
    ...variantFields,
    region: regionCodeOutput,
    status_code: z.number().int().nullable().meta({ description: "Final HTTP status; null when no answer came (network error, timeout, interrupted)." }),
    cache_status: z.string().nullable().meta({ description: "What the cache said: hit, miss, expired, stale, revalidated, bypass, dynamic or unknown (no cache header); null without an answer." }),
    pop: z.string().nullable().meta({ description: "Point of presence that answered, when the CDN names one." }),
    response_time_ms: z.number().int(),
    reason: notCachedReasonSchema.nullable().meta({ description: "Why the call did not end as a cache hit; null for a hit." }),
    verified_cache_status: z
      .string()
      .nullable()
      .meta({ description: "What a second request of the same call said, in the words of `cache_status`, when the run verified its misses; null otherwise." }),
    blocked_by: blockVendorSchema
      .nullable()
      .meta({ description: "The bot protection that answered instead of the site (`reason` is `blocked`), as the summary's `blocked_by` counts it; null when the call was not blocked." }),
    shared_lifetime_seconds: z.number().int().nullable().meta({
      description:
        "The answer's freshness lifetime in a shared cache (the CDN), as RFC 9111 and the CDN's targeted field (RFC 9213 CDN-Cache-Control, Cloudflare-CDN-Cache-Control, Surrogate-Control) set it: s-maxage, max-age, Expires − Date, or a heuristic from Last-Modified. null when a shared cache may not store the answer, when the answer gives no lifetime (the CDN's own default applies), or without an answer.",
    }),
    age_seconds: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The answer's age when it arrived: its Age header, or how far its Date lagged when that is more (RFC 9111 §4.2.3); null without an answer." }),
    fresh_until: timestamp.nullable().meta({
      description: "When the answer stops being fresh in a shared cache: arrival + shared_lifetime_seconds − age_seconds (in the past when it arrived stale); null when shared_lifetime_seconds is.",
    }),
  })
  .meta({ id: "RunResult", description: "One call of the run (first pass): its answer, and why it did not end as a cache hit." });

export type RunResult = z.infer<typeof runResultSchema>;

const resultKindSchema = z.enum(["not_hit", "hit", "all"]);
export type ResultKind = z.infer<typeof resultKindSchema>;

export const runResultsQuery = z.object({
  calls: resultKindSchema.optional().meta({ description: "`not_hit` (the default): the calls that did not end as a cache hit; `hit`: the cache hits; `all`: every call. Ignored with `reason`." }),
  reason: notCachedReasonSchema.optional().meta({ description: "Only the calls with this reason." }),
  region: regionCodeSchema.optional().meta({ description: "Only the calls made from this region." }),
  url: z.string().trim().max(2_000).optional().meta({ description: "Only the calls whose URL contains this text (case-insensitive); empty: no filter." }),
  format: z
    .enum(["json", "csv"])
    .optional()
    .meta({ description: "`csv`: every stored row that matches the filters (not one page) as a CSV download, with a header row; `reason` is empty for a hit." }),
});

export const runResultsPageSchema = z
  .object({
    data: z.array(runResultSchema),
    total: z.number().int().min(0).meta({ description: "Stored rows that match the filters." }),
    limit: z.number().int(),
    offset: z.number().int(),
    truncated: z.boolean().meta({
      description:
        "The run made more calls than it keeps rows for (PREHEAT_RUN_RESULTS_MAX, 100,000 by default, or the plan's bound): the rows are those of its first calls as they were recorded, and the summary still counts every call.",
    }),
  })
  .meta({ id: "RunResultPage" });

export const runDetailSchema = z
  .object({
    type: z.enum(["boost", "warm"]).meta({ description: "`warm` for on-demand warm runs, which have no boost." }),
    boost_id: z.number().int().nullable(),
    boost_name: z.string().nullable(),
    site_id: z.number().int(),
    region: z.array(regionCodeOutput),
    variations: variationsValueSchema.nullable(),
    request_profile: requestProfileValueSchema.nullable().meta({ description: "What every call sent beyond its variant, as the boost or warm had it when the run was created (never the password)." }),
    ...runFields,
    bypassed_calls: z.number().int().meta({
      description:
        "Calls whose reason is `cdn_bypass`: the CDN said it did not try to cache an otherwise cacheable answer (BYPASS, DYNAMIC, PASS, e.g. Vercel for crawler user agents), so they warmed nothing. The same figure as `summary.not_cached.cdn_bypass`; an error, a redirect, no-store or a cookie answered BYPASS is counted under its own reason.",
    }),
    regions_breakdown: z.array(regionBreakdownSchema).meta({ description: "One entry per region of the run, in the run's order (zeros until its calls start)." }),
    failure_samples: z.array(failureSampleSchema).meta({ description: "The first failed calls of the run (a bounded sample, oldest first)." }),
    pops_breakdown: z.array(popBreakdownSchema).meta({ description: "One entry per point of presence that answered, most calls first: cold against warm, PoP by PoP." }),
    variants_breakdown: z.array(variantBreakdownSchema).meta({
      description:
        "One entry per variant of the run (user agent × language × cookie set × encoding), in the order its calls are made, zeros until they are counted: which variants the cache already held. Verification calls are not counted here.",
    }),
    slowdowns: z.array(slowdownSchema).meta({ description: "When and why the run slowed down or sped up again, oldest first (at most 50); empty when it kept its pace." }),
  })
  .meta({ id: "RunDetail", description: "Any run (boost or on-demand warm) with its full summary." });

export type RunDetail = z.infer<typeof runDetailSchema>;

export const warmRunSchema = z
  .object({
    ...runFields,
    source_urls: z.array(z.string()),
    url_count: z.number().int(),
    run_region: z.array(regionCodeOutput),
  })
  .meta({ id: "WarmRun" });

export const runsListQuery = z.object({
  boost_id: idString.optional().meta({ description: "Only the runs of this boost." }),
});

export const runsPageSchema = z.object({ data: z.array(runListItemSchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).meta({ id: "RunPage" });

export const runQueuedSchema = z
  .object({ run_id: z.number().int(), status: z.literal("pending"), unvalidated_limits: unvalidatedLimitsSchema.nullable() })
  .meta({ id: "RunQueued", description: "Processed asynchronously; poll GET /v1/runs/{run_id}." });
