import { z } from "zod";

/**
 * What a boost may send to a site whose ownership is not proven: anyone may register any domain,
 * so these keep Preheat from being a way to flood somebody else's site. The spec sets the URL cap;
 * the calls and runs caps bound what variations, regions and schedules could multiply.
 */
export const UNVALIDATED_LIMITS = { urlsPerRun: 10, callsPerRun: 100, runsPerDay: 24 } as const;

export const unvalidatedLimitsSchema = z
  .object({
    max_urls_per_run: z.literal(UNVALIDATED_LIMITS.urlsPerRun),
    max_calls_per_run: z.literal(UNVALIDATED_LIMITS.callsPerRun),
    max_runs_per_day: z.literal(UNVALIDATED_LIMITS.runsPerDay),
    message: z.string(),
  })
  .meta({
    id: "UnvalidatedLimits",
    description: `Caps in force while the site's ownership is not proven: each run warms at most its first ${UNVALIDATED_LIMITS.urlsPerRun} URLs and makes at most ${UNVALIDATED_LIMITS.callsPerRun} calls, and the site runs at most ${UNVALIDATED_LIMITS.runsPerDay} boost runs in 24 hours. null once the site is validated.`,
  });

const UNVALIDATED_LIMITS_MESSAGE = `The site is not validated yet: each run warms at most its first ${UNVALIDATED_LIMITS.urlsPerRun} URLs with at most ${UNVALIDATED_LIMITS.callsPerRun} calls, and the site runs at most ${UNVALIDATED_LIMITS.runsPerDay} boost runs in 24 hours. Validate the site to lift these caps.`;

/** The caps as the API states them, or null for a validated site. */
export function unvalidatedLimits(validated: boolean): z.infer<typeof unvalidatedLimitsSchema> | null {
  if (validated) return null;
  return {
    max_urls_per_run: UNVALIDATED_LIMITS.urlsPerRun,
    max_calls_per_run: UNVALIDATED_LIMITS.callsPerRun,
    max_runs_per_day: UNVALIDATED_LIMITS.runsPerDay,
    message: UNVALIDATED_LIMITS_MESSAGE,
  };
}
