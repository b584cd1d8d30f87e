import { siteParams } from "@/lib/api/params";
import { changesBody, changesQueuedSchema } from "@/lib/changes/schemas";
import { defineOperation } from "../operation";

export const queueChanges = defineOperation({
  operationId: "queueChanges",
  method: "post",
  path: "/v1/sites/{siteId}/changes",
  tag: "Changes",
  summary: "Warm pages that changed",
  description:
    "The pages join the site's waiting changes run, or open one that warms `delay_seconds` from now: changes arriving within the delay are warmed together, and a URL sent twice is warmed once. They are warmed with the site's change profile (the variants and regions of its `change_boost_id` boost, or a warm's defaults: desktop, `fr`), and their calls go ahead of the site's scheduled, triggered and keep-warm runs, within the site's concurrency and pace. The answer is the run they join (`triggered_by.kind` `changes` in GET /v1/runs/{id}). Quota (403 `quota_exceeded`), plan and suspension apply; a site whose ownership is not proven warms at most 10 URLs and 100 calls a run (the rest are `left_out`) and 24 runs a day (429 `too_many_runs`).",
  role: "member",
  scope: "boosts:write",
  params: siteParams,
  body: changesBody,
  idempotent: true,
  status: 202,
  audit: { action: "site.changes_queued", target: "site" },
  response: changesQueuedSchema,
  errors: ["site_not_validated", "quota_exceeded", "plan_limit", "too_many_runs"],
});
