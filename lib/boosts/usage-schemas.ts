import { z } from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD");

/** `GET /v1/usage`: the days to show (this month by default) and an optional split. */
export const usageQuery = z.object({
  from: day.optional().meta({ description: "First day (UTC), YYYY-MM-DD; the first day of this month when omitted." }),
  to: day.optional().meta({ description: "Last day (UTC), included; today when omitted. At most 366 days after `from`." }),
  group_by: z.enum(["site", "boost"]).optional().meta({ description: "Also split the period's calls by site, or by boost (warms together)." }),
});

export const usageSchema = z
  .object({
    period: z.object({ from: z.string(), to: z.string() }),
    days: z
      .array(z.object({ date: z.string(), calls: z.number().int() }))
      .meta({ description: "Calls of the runs created each day (UTC): a warm's when it was queued, a boost run's when it was planned." }),
    total: z.number().int().meta({ description: "The sum of `days`." }),
    groups: z
      .array(z.object({ site_id: z.number().int().nullable(), domain: z.string().nullable(), boost_id: z.number().int().nullable(), name: z.string().nullable(), calls: z.number().int() }))
      .optional()
      .meta({ description: "With `group_by`: the period's calls per site, or per boost (`boost_id` null: a site's warms together), most first." }),
    quota: z.object({
      period_start: z.string(),
      period_end: z.string(),
      limit: z.number().int(),
      used: z.number().int(),
      remaining: z.number().int(),
      not_in_runs: z.number().int().meta({ description: "Calls counted this month whose runs are gone (their site or boost was deleted): the quota keeps them, the days no longer show them." }),
    }),
    projection: z
      .object({
        scheduled_calls: z.number().int().meta({ description: "What the active schedules will still spend before the month ends: each one's remaining occurrences × the calls a run would make now." }),
        projected: z.number().int().meta({ description: "`used` + `scheduled_calls`." }),
        over_quota: z.boolean(),
        boosts: z.array(z.object({ boost_id: z.number().int(), name: z.string(), schedule: z.string(), runs_left: z.number().int(), calls_per_run: z.number().int(), calls: z.number().int() })),
      })
      .meta({ description: "At most: a tick that finds the boost's last run still going starts nothing." }),
  })
  .meta({ id: "Usage" });

export type Usage = z.infer<typeof usageSchema>;
