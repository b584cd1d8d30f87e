import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";
import { UNVALIDATED_LIMITS } from "@/lib/sites/unvalidated-limits";
import { runStatusSchema } from "@/lib/core/run-figures";
import { MAX_WARM_URLS, siteUrlList } from "@/lib/runs/warm-schemas";

export const changesBody = z
  .object({
    urls: siteUrlList(`The site's pages that changed: absolute URLs on its domain (\`www.\` variants count), at most ${MAX_WARM_URLS}. A URL sent twice is warmed once.`),
    delay_seconds: z.number().int("must be a whole number of seconds").min(0, "must be 0 or more").max(3600, "must be at most 3600").optional().meta({
      description:
        "How long the changes wait before they are warmed (CDNs and origins need a moment after a purge); default the service's PREHEAT_CHANGE_DELAY_SECONDS, 30. Changes arriving meanwhile join the same warm; the delay of the request that opened it counts.",
    }),
  })
  .meta({ id: "ChangesRequest" });

export const changesQueuedSchema = z
  .object({
    run_id: z.number().int().meta({ description: "The run the changes join: poll GET /v1/runs/{run_id}; its `triggered_by.kind` is `changes`." }),
    url_count: z.number().int().meta({ description: "URLs of this request the run will warm (new to it, or already in it)." }),
    left_out: z
      .number()
      .int()
      .meta({
        description: `URLs of this request left out: a site whose ownership is not proven warms at most ${UNVALIDATED_LIMITS.urlsPerRun} URLs and ${UNVALIDATED_LIMITS.callsPerRun} calls a run.`,
      }),
    status: z.literal("pending"),
    warm_at: timestamp.meta({ description: "When the run starts warming: the delay after the change that opened it." }),
  })
  .meta({ id: "ChangesQueued" });

/** How many of the site's earlier changes runs the answer lists beside the waiting one. */
export const RECENT_CHANGES_RUNS = 5;

const waitingChangesSchema = z
  .object({
    run_id: z.number().int().meta({ description: "The site's changes run still gathering or about to warm: GET /v1/runs/{run_id}." }),
    urls: z.array(z.string()).meta({ description: "The URLs it will warm, each once, in the order they arrived." }),
    planned_calls: z.number().int().meta({ description: "Calls it will make: each URL through the change profile's variants and regions." }),
    warm_at: timestamp.meta({ description: "When it starts warming: the delay after the change that opened it. A second past it, the run is being planned." }),
    opened_at: timestamp.meta({ description: "When the change that opened it arrived." }),
  })
  .meta({ id: "WaitingChanges" });

const recentChangesRunSchema = z
  .object({
    run_id: z.number().int(),
    status: runStatusSchema,
    url_count: z.number().int().meta({ description: "URLs the run warms (or warmed)." }),
    created_at: timestamp,
    finished_at: timestamp.nullable(),
  })
  .meta({ id: "RecentChangesRun" });

export const changesWaitingSchema = z
  .object({
    waiting: waitingChangesSchema.nullable().meta({ description: "The changes waiting to be warmed, or null when none are." }),
    recent: z.array(recentChangesRunSchema).meta({ description: `The site's last changes runs besides the waiting one, newest first (at most ${RECENT_CHANGES_RUNS}).` }),
    default_delay_seconds: z
      .number()
      .int()
      .meta({ description: "How long changes wait before they are warmed unless a request names its own `delay_seconds`: the service's PREHEAT_CHANGE_DELAY_SECONDS." }),
  })
  .meta({ id: "ChangesWaiting" });

export type ChangesWaiting = z.output<typeof changesWaitingSchema>;
