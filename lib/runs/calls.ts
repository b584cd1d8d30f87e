import type { PlannedCall } from "@/drizzle/schema";
import { DEFAULT_USER_AGENT } from "@/lib/warm/user-agents";

/** What multiplies a run's URLs into calls. */
export type CallPlan = { regions: readonly string[]; variations: { user_agents?: readonly string[] | null; languages?: readonly string[] | null } | null | undefined };

/** The user agents and languages each URL is called with (the default agent, no language, when none are asked for). */
export function variationsOf(plan: Pick<CallPlan, "variations">): { agents: string[]; languages: (string | null)[] } {
  const agents = plan.variations?.user_agents?.length ? [...plan.variations.user_agents] : [DEFAULT_USER_AGENT];
  const languages: (string | null)[] = plan.variations?.languages?.length ? [...plan.variations.languages] : [null];
  return { agents, languages };
}

/**
 * The one count of a run's calls: URL × user agent × language × region, cut at the call limit.
 * Planning, the monthly quota and the dashboard's previews all use it.
 */
export function countCalls(urlCount: number, plan: CallPlan, callLimit: number | null = null): number {
  const { agents, languages } = variationsOf(plan);
  const all = urlCount * plan.regions.length * agents.length * languages.length;
  return callLimit === null ? all : Math.min(all, callLimit);
}

/**
 * One region's calls in plan order, generated as they are stored (a run of a million calls is
 * never held in memory): the call limit cuts the URL-major order URL → region → agent → language.
 */
export function* regionCalls(urls: readonly string[], plan: CallPlan, callLimit: number | null, region: string): Generator<PlannedCall> {
  const { agents, languages } = variationsOf(plan);
  const perUrl = agents.length * languages.length;
  const regionIndex = plan.regions.indexOf(region);
  for (let u = 0; u < urls.length; u++) {
    let index = (u * plan.regions.length + regionIndex) * perUrl; // the call's place in the whole plan
    for (const user_agent of agents) {
      for (const language of languages) {
        if (callLimit !== null && index >= callLimit) return;
        yield { url: urls[u]!, user_agent, language };
        index++;
      }
    }
  }
}

/** Every call of a plan by region (tests and small plans; planning streams regionCalls instead). */
export function expandCalls(urls: readonly string[], plan: CallPlan, callLimit: number | null) {
  const byRegion = new Map<string, PlannedCall[]>(plan.regions.map((region) => [region, [...regionCalls(urls, plan, callLimit, region)]]));
  return { byRegion, total: countCalls(urls.length, plan, callLimit) };
}

/** Calls per region of a plan, as regionCalls would generate them, counted without generating them. */
export function countCallsByRegion(urlCount: number, plan: CallPlan, callLimit: number | null = null): Record<string, number> {
  const { agents, languages } = variationsOf(plan);
  const perUrl = agents.length * languages.length;
  const perUrlAllRegions = perUrl * plan.regions.length;
  const total = countCalls(urlCount, plan, callLimit);
  // URL-major order: whole URLs first, then the last one cut part-way, region by region.
  const wholeUrls = perUrlAllRegions ? Math.floor(total / perUrlAllRegions) : 0;
  const rest = total - wholeUrls * perUrlAllRegions;
  return Object.fromEntries(plan.regions.map((region, i) => [region, wholeUrls * perUrl + Math.min(perUrl, Math.max(0, rest - i * perUrl))]));
}
