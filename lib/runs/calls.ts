import type { PlannedCall } from "@/lib/core/calls";
import { DEFAULT_USER_AGENT } from "@/lib/warm/user-agents";

/** What multiplies a run's URLs into calls. */
export type CallPlan = {
  regions: readonly string[];
  variations:
    | {
        user_agents?: readonly string[] | null;
        languages?: readonly string[] | null;
        cookie_sets?: readonly { name: string }[] | null;
        encodings?: readonly string[] | null;
      }
    | null
    | undefined;
  /** The request profile's custom user agents are variants of their own, beside the classes. */
  requestProfile?: { custom_user_agents?: readonly string[] | null } | null;
};

/** One way a URL is asked for: the user agent (a class, or a custom User-Agent string), the language, the cookie set and the encoding. */
export type Variant = { user_agent: string; language: string | null; cookie_set: string | null; encoding: string | null };

/**
 * The values of each dimension a URL is called with. Agents: the classes asked for (desktop when
 * none), then the profile's custom ones. A dimension not asked for is one value, null: no language,
 * no cookie set, the browser's own encoding.
 */
function dimensionsOf(plan: Pick<CallPlan, "variations" | "requestProfile">) {
  const v = plan.variations;
  const classes = v?.user_agents?.length ? v.user_agents : [DEFAULT_USER_AGENT];
  return {
    agents: [...classes, ...(plan.requestProfile?.custom_user_agents ?? [])],
    languages: v?.languages?.length ? [...v.languages] : [null],
    cookieSets: v?.cookie_sets?.length ? v.cookie_sets.map((set) => set.name) : [null],
    encodings: v?.encodings?.length ? [...v.encodings] : [null],
  };
}

/** The user agents each URL is called with: the classes asked for (the default one when none), then the profile's own strings. */
export function agentsOf(plan: Pick<CallPlan, "variations" | "requestProfile">): string[] {
  return dimensionsOf(plan).agents;
}

/** Every variant each URL is called with, in plan order: agent → language → cookie set → encoding. */
export function variantsOf(plan: Pick<CallPlan, "variations" | "requestProfile">): Variant[] {
  const { agents, languages, cookieSets, encodings } = dimensionsOf(plan);
  return agents.flatMap((user_agent) => languages.flatMap((language) => cookieSets.flatMap((cookie_set) => encodings.map((encoding) => ({ user_agent, language, cookie_set, encoding })))));
}

/** The calls of each URL and region, counted without listing them. */
function perUrl(plan: CallPlan): number {
  const { agents, languages, cookieSets, encodings } = dimensionsOf(plan);
  return agents.length * languages.length * cookieSets.length * encodings.length;
}

/**
 * The one count of a run's calls: URL × user agent × language × cookie set × encoding × region,
 * cut at the call limit. Planning, the monthly quota, the estimate and the dashboard all use it.
 */
export function countCalls(urlCount: number, plan: CallPlan, callLimit: number | null = null): number {
  const all = urlCount * plan.regions.length * perUrl(plan);
  return callLimit === null ? all : Math.min(all, callLimit);
}

/** A planned call of the variant: the cookie set and the encoding only when the run has them, so plain calls stay as small as before. */
function plannedCall(url: string, variant: Variant): PlannedCall {
  const call: PlannedCall = { url, user_agent: variant.user_agent, language: variant.language };
  if (variant.cookie_set !== null) call.cookie_set = variant.cookie_set;
  if (variant.encoding !== null) call.encoding = variant.encoding;
  return call;
}

/**
 * One region's calls in plan order, generated as they are stored (a run of a million calls is
 * never held in memory): the call limit cuts the URL-major order URL → region → variant.
 */
export function* regionCalls(urls: readonly string[], plan: CallPlan, callLimit: number | null, region: string): Generator<PlannedCall> {
  const variants = variantsOf(plan);
  const regionIndex = plan.regions.indexOf(region);
  for (let u = 0; u < urls.length; u++) {
    let index = (u * plan.regions.length + regionIndex) * variants.length; // the call's place in the whole plan
    for (const variant of variants) {
      if (callLimit !== null && index >= callLimit) return;
      yield plannedCall(urls[u]!, variant);
      index++;
    }
  }
}

/** Every call of a plan by region (tests and small plans; planning streams regionCalls instead). */
export function expandCalls(urls: readonly string[], plan: CallPlan, callLimit: number | null) {
  const byRegion = new Map<string, PlannedCall[]>(plan.regions.map((region) => [region, [...regionCalls(urls, plan, callLimit, region)]]));
  return { byRegion, total: countCalls(urls.length, plan, callLimit) };
}

/** How the call limit cuts the URL-major order: whole URLs (every region), then the calls of the last one, region after region. */
function cut(urlCount: number, plan: CallPlan, callLimit: number | null) {
  const each = perUrl(plan);
  const perUrlAllRegions = each * plan.regions.length;
  const total = countCalls(urlCount, plan, callLimit);
  const wholeUrls = perUrlAllRegions ? Math.floor(total / perUrlAllRegions) : 0;
  const rest = total - wholeUrls * perUrlAllRegions;
  /** Calls of the last, cut URL in the region at this index. */
  const restIn = (regionIndex: number) => Math.min(each, Math.max(0, rest - regionIndex * each));
  return { each, wholeUrls, restIn };
}

/** Calls per region of a plan, as regionCalls would generate them, counted without generating them. */
export function countCallsByRegion(urlCount: number, plan: CallPlan, callLimit: number | null = null): Record<string, number> {
  const { each, wholeUrls, restIn } = cut(urlCount, plan, callLimit);
  return Object.fromEntries(plan.regions.map((region, i) => [region, wholeUrls * each + restIn(i)]));
}

/** Calls per variant of a plan (every region together), as regionCalls would generate them, in plan order. */
export function countCallsByVariant(urlCount: number, plan: CallPlan, callLimit: number | null = null): (Variant & { calls: number })[] {
  const { wholeUrls, restIn } = cut(urlCount, plan, callLimit);
  return variantsOf(plan).map((variant, position) => ({
    ...variant,
    calls: wholeUrls * plan.regions.length + plan.regions.filter((_, i) => position < restIn(i)).length,
  }));
}

/**
 * The key a batch counts a variant's calls under (run_batches.variant_figures): `agent|language|cookie set|encoding`,
 * empty for a dimension the call does not have. Only the agent (a custom User-Agent string) may hold `|`: it is read back from the right.
 */
export function variantKey(call: { user_agent: string; language: string | null; cookie_set?: string | null; encoding?: string | null }): string {
  return `${call.user_agent}|${call.language ?? ""}|${call.cookie_set ?? ""}|${call.encoding ?? ""}`;
}

export function variantOfKey(key: string): Variant {
  const parts = key.split("|");
  const [language, cookieSet, encoding] = parts.slice(-3);
  return { user_agent: parts.slice(0, -3).join("|"), language: language || null, cookie_set: cookieSet || null, encoding: encoding || null };
}
