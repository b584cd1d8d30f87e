import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

export const createHookBody = z
  .object({ name: z.string().trim().max(200, "must be at most 200 characters").nullable().optional().meta({ description: "What calls it, e.g. `Production deploy`." }) })
  .meta({ id: "CreateBoostHookRequest" });

export const boostHookSchema = z
  .object({
    id: z.number().int(),
    boost_id: z.number().int(),
    name: z.string().nullable(),
    prefix: z.string().meta({ description: "The token's first characters, to tell hooks apart; not enough to call one." }),
    last_used_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "BoostHook" });

export const createdBoostHookSchema = boostHookSchema
  .extend({
    url: z.string().optional().meta({
      description:
        "The trigger URL (`…/v1/hooks/{token}`), shown only in this answer: a `POST` to it, with no other credential, starts the boost. Keep it secret like a key. Absent from an idempotent replay (`Idempotent-Replayed: true`): it is never shown again.",
    }),
  })
  .meta({ id: "CreatedBoostHook" });

export const hookTriggeredSchema = z
  .object({
    run_id: z.number().int().meta({ description: "The run that will warm for this call: a new run, the boost's pending run, or its follow-up." }),
    status: z.string().meta({ description: "That run's status now (`pending` or `running`)." }),
    coalesced: z.boolean().meta({
      description:
        "`false`: this call started a run. `true`: a run of the boost was pending or running, so this call joined it: a pending run covers it; a running one gets one follow-up run, which starts when it ends, however many calls arrive meanwhile.",
    }),
  })
  .meta({ id: "HookTriggered" });
