import { z } from "zod";
import { pageOf } from "@/lib/core/pagination";
import { timestamp } from "@/lib/core/primitives";

const notChasedEntry = z
  .object({
    url: z.string(),
    region: z.string(),
    user_agent: z.string(),
    language: z.string().nullable(),
    reason: z.string().meta({
      description:
        'Why the page is not kept warm, e.g. "a shared-cache lifetime of 30 s: shorter than the 60 s floor", "not storable by a shared cache (private)", "lifetime unknown: warmed at the boost\'s schedule".',
    }),
    lifetime_seconds: z.number().int().nullable().meta({ description: "The page's shared-cache lifetime as last read; null when it has none." }),
  })
  .meta({ id: "KeepWarmNotChased" });

export const keepWarmStateSchema = z
  .object({
    keep_warm: z.boolean(),
    entries: z.number().int().meta({ description: "URL × variant × region combinations of the boost warmed at least once." }),
    chased: z.number().int().meta({ description: "Entries re-warmed as their lifetime ends." }),
    next_due_at: timestamp.nullable().meta({ description: "The next re-warm; null when none is due." }),
    calls_this_month: z.number().int().meta({ description: "Keep-warm calls made this calendar month (UTC)." }),
    monthly_call_budget: z.number().int().nullable(),
    projected_monthly_calls: z
      .number()
      .int()
      .meta({ description: "Calls a month of keeping the chased entries warm, from the lifetimes learned so far: one a lifetime each, never more often than PREHEAT_KEEP_WARM_MIN_INTERVAL_SECONDS." }),
    left_cold_by_budget: z.number().int().meta({ description: "Chased entries the monthly budget cannot cover at that rate: the last ones in the boost's URL order. 0 without a budget." }),
    not_chased: pageOf(notChasedEntry, "KeepWarmNotChasedPage").meta({ description: "The entries not kept warm, with why (paginated by `limit` and `offset`)." }),
  })
  .meta({ id: "KeepWarmState" });
