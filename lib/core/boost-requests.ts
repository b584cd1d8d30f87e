import { z } from "zod";
import { InvalidError } from "./errors";
import { idNumber } from "./primitives";
import { regionListSchema } from "./regions";
import { checkCron } from "./schedule";
import { URL_ORDERS } from "./url-orders";
import { CONTENT_TYPES, requestProfileDraft, requestProfileSchema, requestProfileTopLevel, uniq, variationsSchema, verify } from "./variations";

/*
 * What a boost request may hold, declared once: the API validates and documents its bodies with
 * these, and the dashboard's boost form checks a draft with the same schemas before sending it.
 */

export const SOURCE_TYPES = ["sitemap", "csv"] as const;

const name = z.string().trim().min(1).max(200);
const urlRoot = z.string().max(2000).startsWith("/", "must start with /").meta({ description: "Only URLs whose path starts with this are warmed; `/` when omitted." });
const excludeExt = z
  .array(
    z
      .string()
      .transform((ext) => ext.trim().toLowerCase().replace(/^\.+/, ""))
      .pipe(z.string().regex(/^[a-z0-9]{1,16}$/, "must be a file extension such as jpg")),
  )
  .max(100)
  .transform(uniq)
  .meta({ description: "Extensions to skip, case-insensitive; leading dots are stripped (`.JPG` → `jpg`)." });
const contentTypes = z
  .array(z.enum(CONTENT_TYPES))
  .transform(uniq)
  .meta({ description: `Resource classes to warm, recognised from the URL's extension: ${CONTENT_TYPES.join(", ")} (no extension counts as html).` });
/** Said as the regions say it: a sentence the dashboard shows under its list of sitemaps as it is. */
const AT_LEAST_ONE_SITEMAP = "must list at least one sitemap";
const sitemapIds = z.array(idNumber).min(1, AT_LEAST_ONE_SITEMAP).max(500).transform(uniq);
const sourceUrl = z
  .string()
  .url("must be an absolute http(s) URL")
  .refine((value) => /^https?:\/\//i.test(value), "must be an absolute http(s) URL")
  .meta({
    description:
      "URL of the CSV file. Its URLs are read from the column its first 10 rows show: a `url`, `loc` or `link` column named by the first row; else the column in which most of those rows hold an http(s) URL (the leftmost on a tie), below the first row when that row holds no URL there. At least half of the rows below such a header must hold a URL, or the file is refused.",
  });
const schedule = z
  .string()
  .transform((value, ctx) => {
    const checked = checkCron(value);
    if ("problem" in checked) {
      ctx.addIssue({ code: "custom", message: checked.problem });
      return z.NEVER;
    }
    return checked.expression;
  })
  .meta({
    description:
      'A 5-field cron expression (minute hour day-of-month month day-of-week), interpreted in UTC, or a macro: `@hourly`, `@daily` (or `@midnight`), `@weekly`, `@monthly`, `@yearly` (or `@annually`). A macro is stored and answered as the cron it stands for (`@daily` → `0 0 * * *`). An expression that can never fire is refused with 422 saying why (`0 0 31 4 *`: "never fires (no date matches: April has 30 days)"). null for no schedule.',
    example: "0 3 * * *",
  });
const callLimit = z.number().int().positive().max(100_000_000).meta({ description: "Maximum number of calls per run; null for no limit." });

const ORDER_TEXT =
  "The order a run warms its URLs in (a cap keeps the first ones): `sitemap`, as the sitemaps list them (a CSV boost: as the file lists them); `priority`, the sitemap's `<priority>` highest first (0.5 when a URL has none, the protocol's default); `lastmod`, newest `<lastmod>` first, URLs without one last; `traffic`, most visited first by the site's popularity table (GET /v1/sites/{siteId}/traffic), the unvisited after them in the sitemaps' order. Ties keep the sitemaps' order. With `priority` or `lastmod`, every sitemap is read again (a conditional GET) before each run. A CSV boost takes `sitemap` or `traffic`. Whatever the order, when the site has traffic data a `call_limit` that cannot cover every URL keeps the most visited, and a keep-warm `monthly_call_budget` warms the most visited first. `sitemap` when omitted.";
const order = z.enum(URL_ORDERS).meta({ description: `${ORDER_TEXT} \`url_order\` is its name; \`order\` is accepted as well (sending both with different values is a 422).` });
/** The orders a CSV file's URLs can be warmed in: it gives no priority or lastmod. */
const csvOrder = z
  .enum(["sitemap", "traffic"], { error: () => CSV_ORDER_PROBLEM })
  .meta({ description: "The file's order (`sitemap`), or most visited first (`traffic`): a CSV file gives no priority or lastmod." });

/**
 * The order asked for: `url_order` (its name since issue 59) or `order` (its first name, still
 * accepted); undefined when neither is sent. Both with different values is refused.
 */
export function askedOrder<T extends string>(input: { order?: T; url_order?: T }): T | undefined {
  if (input.order !== undefined && input.url_order !== undefined && input.order !== input.url_order) {
    throw new InvalidError("url_order: differs from order; send one of them.", [{ field: "url_order", message: "differs from order; send one of them" }]);
  }
  return input.url_order ?? input.order;
}
const onlyChanged = z.boolean().meta({
  description:
    "Warm only the URLs that are new, or whose `<lastmod>` changed (appeared, disappeared or moved), since the boost's last completed (`done`) run; failed and paused runs do not count. A run without such a run before it warms every URL. Every sitemap is read again (a conditional GET) before each run. The estimate (`unchanged_urls`) and the run's `status_message` say how many URLs were left out as unchanged. Sitemap boosts only. False when omitted.",
});
const keepWarm = z.boolean().meta({
  description:
    "Keep the boost's pages warm: each URL × variant × region is warmed again when the CDN would otherwise hand its next visitor a miss (just after its shared-cache lifetime ends, inside its `stale-while-revalidate` window when it has one), read from each answer as a shared cache reads it. Beside the schedule, or instead of it (a keep-warm boost without a schedule warms every URL once a day, to learn lifetimes). Re-warms are grouped into runs with `triggered_by.kind` `keep_warm`, one per boost per window (PREHEAT_KEEP_WARM_WINDOW_MINUTES). Pages not storable, or with a lifetime under PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS, are not chased. The site must be validated. False when omitted.",
});
const keepWarmLead = z.number().min(0).max(0.9).meta({
  description:
    "With `keep_warm`, a share of each page's lifetime (0 to 0.9) to re-warm before it ends, for a CDN that refreshes ahead of expiry on a request (Akamai's prefresh, a Varnish grace set-up); 0 (the default) re-warms just after it ends, since on a standard cache a request while the page is fresh renews nothing.",
});
const monthlyCallBudget = z.number().int().min(0).max(100_000_000).meta({
  description:
    "With `keep_warm`, the keep-warm calls the boost may make a calendar month (UTC); when it cannot cover every page, the first pages in the boost's URL order are kept warm and the rest wait. null for no budget of its own (the organization's quota still applies).",
});

/** Why a CSV boost refuses `order` and `only_changed` (on create here, on update in the service). */
export const CSV_ORDER_PROBLEM = "must be sitemap or traffic for a CSV boost: a CSV file gives no priority or lastmod";
export const CSV_ONLY_CHANGED_PROBLEM = "applies to sitemap boosts only: a CSV file gives no lastmod to compare";

const boostFields = {
  name,
  source_type: z.enum(SOURCE_TYPES),
  region: regionListSchema,
  sitemap_ids: sitemapIds.optional().meta({ description: "This site's sitemaps to warm; required when source_type is sitemap." }),
  source_url: sourceUrl.optional().meta({ description: "Required when source_type is csv." }),
  url_root: urlRoot.optional(),
  exclude_ext: excludeExt.nullable().optional(),
  variations: variationsSchema.nullable().optional(),
  request_profile: requestProfileSchema.nullable().optional(),
  ...requestProfileTopLevel,
  content_types: contentTypes.nullable().optional(),
  schedule: schedule.nullable().optional(),
  call_limit: callLimit.nullable().optional(),
  ignore_errors: z.boolean().optional().meta({ description: "When true the boost never auto-pauses on errors; false when omitted." }),
  verify: verify.optional(),
  report_email_enabled: z.boolean().optional().meta({ description: "Send an e-mail report when a run ends; true when omitted." }),
  keep_warm: keepWarm.optional(),
  keep_warm_lead: keepWarmLead.optional(),
  monthly_call_budget: monthlyCallBudget.nullable().optional(),
};

function requireSource(value: { source_type: string; sitemap_ids?: number[]; source_url?: string }, ctx: z.RefinementCtx) {
  if (value.source_type === "sitemap" && !value.sitemap_ids) ctx.addIssue({ code: "custom", path: ["sitemap_ids"], message: "is required when source_type is sitemap" });
  if (value.source_type === "csv" && !value.source_url) ctx.addIssue({ code: "custom", path: ["source_url"], message: "is required when source_type is csv" });
}

const requiredFor = (source: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `is required when source_type is ${source}` : undefined);

/** The fields of each kind of source: a boost is created with one of them, told apart by `source_type`. */
const sources = {
  sitemap: {
    source_type: z.literal("sitemap"),
    sitemap_ids: z
      .array(idNumber, { error: requiredFor("sitemap") })
      .min(1, AT_LEAST_ONE_SITEMAP)
      .max(500)
      .transform(uniq)
      .meta({ description: "This site's sitemaps to warm (1 to 500)." }),
    url_order: order.optional(),
    order: order.optional(),
    only_changed: onlyChanged.optional(),
  },
  csv: {
    source_type: z.literal("csv"),
    source_url: z.string({ error: requiredFor("csv") }).pipe(sourceUrl),
    url_order: csvOrder.optional(),
    order: csvOrder.optional(),
    only_changed: z.literal(false, { error: CSV_ONLY_CHANGED_PROBLEM }).optional().meta({ description: "A CSV file gives no lastmod to compare: always false." }),
  },
};

const { source_type: _type, sitemap_ids: _ids, source_url: _url, ...commonFields } = boostFields;

/** `oneOf` by `source_type` in the document; an unknown source_type names the ones there are. */
function createBodyOf<Extra extends z.ZodRawShape>(extra: Extra, id: string) {
  return z.discriminatedUnion(
    "source_type",
    [
      z.object({ ...extra, ...commonFields, ...sources.sitemap }).meta({ id: `${id}FromSitemaps`, description: "A boost warming the URLs of the site's sitemaps." }),
      z.object({ ...extra, ...commonFields, ...sources.csv }).meta({ id: `${id}FromCsv`, description: "A boost warming the URLs of a CSV file." }),
    ],
    { error: (issue) => (issue.code === "invalid_union" ? `must be one of ${SOURCE_TYPES.map((t) => `"${t}"`).join(", ")}` : undefined) },
  );
}

export const createSiteBoostBody = createBodyOf({}, "CreateSiteBoostRequest").meta({ id: "CreateSiteBoostRequest" });

/** A boost being edited, for its live estimate: what decides the calls, nothing else required. */
export const boostDraftBody = z
  .object({
    boost_id: idNumber.optional().meta({ description: "The boost being edited, whose last done run `only_changed` compares with; omitted for a new boost." }),
    source_type: boostFields.source_type,
    region: boostFields.region,
    sitemap_ids: boostFields.sitemap_ids,
    source_url: boostFields.source_url,
    url_root: boostFields.url_root,
    exclude_ext: boostFields.exclude_ext,
    variations: boostFields.variations,
    request_profile: requestProfileDraft.nullable().optional(),
    content_types: boostFields.content_types,
    call_limit: boostFields.call_limit,
    url_order: order.optional(),
    order: order.optional(),
    only_changed: onlyChanged.optional(),
    verify: verify.optional(),
    keep_warm: keepWarm.optional(),
    monthly_call_budget: monthlyCallBudget.nullable().optional(),
    // Not the boost's strict `schedule`: a cron half typed gives no monthly cost, never a refused estimate.
    schedule: z.string().max(200).nullable().optional().meta({
      description:
        "The boost's `schedule` as it would be saved (5-field cron, UTC), for `calls_per_month`; null or omitted: on demand. An expression that is not a valid cron gives `calls_per_month` null.",
    }),
  })
  .superRefine(requireSource)
  .superRefine((value, ctx) => {
    if (value.source_type === "csv" && value.only_changed) ctx.addIssue({ code: "custom", path: ["only_changed"], message: CSV_ONLY_CHANGED_PROBLEM });
  });

export type BoostDraft = z.output<typeof boostDraftBody>;

export const createBoostBody = createBodyOf({ site_id: idNumber }, "CreateBoostRequest").meta({ id: "CreateBoostRequest" });

export type CreateBoostInput = z.output<typeof createSiteBoostBody>;

export const updateBoostBody = z
  .object({
    name: name.optional(),
    region: regionListSchema.optional(),
    url_root: urlRoot.optional(),
    exclude_ext: excludeExt.nullable().optional(),
    variations: variationsSchema.nullable().optional(),
    request_profile: requestProfileSchema.nullable().optional().meta({ description: "Replaces the profile whole (null removes it); a `basic_auth` without `password` keeps the stored one." }),
    ...requestProfileTopLevel,
    sitemap_ids: sitemapIds.optional(),
    source_url: sourceUrl.optional(),
    content_types: contentTypes.nullable().optional(),
    schedule: schedule.nullable().optional(),
    call_limit: callLimit.nullable().optional(),
    url_order: order.optional(),
    order: order.optional(),
    only_changed: onlyChanged.optional(),
    ignore_errors: z.boolean().optional(),
    verify: verify.optional(),
    report_email_enabled: z.boolean().optional(),
    keep_warm: keepWarm.optional(),
    keep_warm_lead: keepWarmLead.optional(),
    monthly_call_budget: monthlyCallBudget.nullable().optional(),
  })
  .meta({
    id: "UpdateBoostRequest",
    description:
      "Only the fields supplied change; `schedule: null`, `call_limit: null` and `request_profile: null` clear them. `request_profile` replaces the profile whole; its fields at the top level (`headers`, `cookies`, `basic_auth`, `custom_user_agents`) change those fields of the stored profile only (an empty one removes that field), the others kept.",
  });

export type UpdateBoostInput = z.output<typeof updateBoostBody>;
