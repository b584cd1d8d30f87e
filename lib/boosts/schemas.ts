import { z } from "zod";
import { estimateVisitShareSchema } from "@/lib/core/traffic";
import { SOURCE_TYPES } from "@/lib/core/boost-requests";
import { BOOST_STATUS_MEANINGS, BOOST_STATUSES } from "@/lib/core/boost-status";
import { timestamp } from "@/lib/core/primitives";
import { regionCodeOutput } from "@/lib/core/regions";
import { URL_ORDERS } from "@/lib/core/url-orders";
import { CONTENT_TYPES, requestProfileValueSchema, variantFields, variationsValueSchema } from "@/lib/core/variations";
import { unvalidatedLimitsSchema } from "@/lib/sites/unvalidated-limits";

/*
 * What the API answers about boosts. What it is sent (create, update, the estimate's draft) is in
 * lib/core/boost-requests.ts, where the dashboard's form can take it too.
 */

export const boostSchema = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    name: z.string(),
    status: z.enum(BOOST_STATUSES).meta({
      description: `${BOOST_STATUSES.map((status) => `\`${status}\`: ${BOOST_STATUS_MEANINGS[status]}`).join(" ")} A trigger or an update of a paused boost resumes it. The dashboard shows the same word with the same meaning.`,
    }),
    source_type: z.enum(SOURCE_TYPES),
    region: z.array(regionCodeOutput),
    sitemap_ids: z.array(z.number().int()),
    source_url: z.string().nullable(),
    url_root: z.string(),
    exclude_ext: z.array(z.string()).nullable(),
    variations: variationsValueSchema.nullable(),
    request_profile: requestProfileValueSchema.nullable(),
    content_types: z.array(z.enum(CONTENT_TYPES)).nullable(),
    ignore_errors: z.boolean(),
    verify: z
      .union([z.boolean(), z.literal("visitors")])
      .meta({ description: '`true`: runs ask their cacheable misses again; `"visitors"`: runs end with a visitor check; `false`: neither (see the create request).' }),
    report_email_enabled: z.boolean(),
    schedule: z.string().nullable().meta({ description: "The 5-field cron expression, in UTC (a macro sent is answered as the cron it stands for); null without a schedule." }),
    next_run_at: timestamp
      .nullable()
      .meta({ description: "Next scheduled run (UTC): the schedule's next occurrence, or for a keep-warm boost without a schedule its daily full run; null otherwise." }),
    keep_warm: z.boolean().meta({ description: "Whether each page is warmed again as its shared-cache lifetime ends (see the create request)." }),
    keep_warm_lead: z.number().meta({ description: "The share of a page's lifetime its re-warm comes before the end (0: just after it)." }),
    monthly_call_budget: z.number().int().nullable().meta({ description: "Keep-warm calls the boost may make a calendar month (UTC); null for no budget of its own." }),
    call_limit: z.number().int().nullable(),
    url_order: z.enum(URL_ORDERS).meta({ description: "The order runs warm the URLs in (see the create request)." }),
    order: z.enum(URL_ORDERS).meta({ description: "`url_order`'s first name, the same value." }),
    only_changed: z.boolean().meta({ description: "Whether runs warm only the URLs new or changed since the last done run (see the create request)." }),
    unvalidated_limits: unvalidatedLimitsSchema.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Boost" });

export type BoostPayload = z.infer<typeof boostSchema>;

const variantCallsSchema = z.object({ ...variantFields, calls: z.number().int() }).meta({ id: "VariantCalls" });

export const boostEstimateSchema = z
  .object({
    urls: z.number().int().meta({ description: "URLs a run would warm now, after url_root, exclude_ext, content_types and the cap of a site not validated." }),
    calls: z.number().int().meta({
      description:
        "Calls a run would make: URL × user agent (classes and custom) × language × cookie set × encoding × region, cut at call_limit (and at the cap of a site not validated). A run of the boost started now has this `total_calls`.",
    }),
    calls_by_region: z.record(z.string(), z.number().int()).meta({ description: "Region code → its calls, in the boost's region order." }),
    calls_by_variant: z.array(variantCallsSchema).meta({
      description: "Each variant's calls (every region together), in the order a run makes them: a run started now has these in its `variants_breakdown`.",
    }),
    quota_remaining: z.number().int().meta({ description: "Calls left in the account's monthly quota now: a run needing more fails." }),
    calls_per_month: z.number().int().nullable().meta({
      description:
        "What the boost's schedule would spend in a month: the cron's occurrences in the next 30 days × `calls` (a run started now; the quota counts each run's calls when it is planned). Null without a schedule (the boost runs only when started), and, for a draft in the dashboard's form, while its schedule is not a valid cron.",
    }),
    monthly_quota: z.number().int().meta({ description: "The account's monthly call limit (GET /v1/usage's `quota.limit`), to compare `calls_per_month` with." }),
    keep_warm_calls_per_month: z.number().int().nullable().meta({
      description:
        "For a saved boost with `keep_warm`: the calls a month of keeping its pages warm, from the lifetimes learned so far (one call a lifetime per page, never more often than the floor), on top of `calls_per_month`. null otherwise, and for a draft (its pages' lifetimes are learned by its runs).",
    }),
    keep_warm_left_cold: z.number().int().nullable().meta({
      description: "With `keep_warm` and a `monthly_call_budget`: the pages kept warm that the budget cannot cover at that rate (the last in the boost's URL order). null otherwise.",
    }),
    visit_share: estimateVisitShareSchema.nullable(),
    unchanged_urls: z
      .number()
      .int()
      .meta({ description: "URLs left out by `only_changed` as unchanged since the boost's last done run (counted in none of the figures above); 0 when only_changed is off." }),
    notes: z.array(z.string()).meta({
      description:
        "Why URLs or calls were left out (filters, URLs unchanged since run N, caps, sitemaps not processed yet, a CSV file that cannot be read), and, when chosen regions share one egress, that they warm one cache between them.",
    }),
    shared_egress: z.array(z.array(regionCodeOutput)).meta({
      description:
        "Groups of the chosen regions whose calls leave through the same network now (GET /v1/me's `shares_egress_with`): each group reaches the same CDN PoPs and warms one cache, though every call is made and counted. Empty when each region has its own egress.",
    }),
  })
  .meta({
    id: "BoostEstimate",
    description:
      "What a run of the boost would do now, without doing it. Sitemaps are counted from their current lists (a run first reads again those older than the operator's maximum age); a CSV file is read now.",
  });

export type BoostEstimate = z.infer<typeof boostEstimateSchema>;
