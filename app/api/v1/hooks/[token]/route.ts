import { withPathToken } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/hooks";
import { json } from "@/lib/api/responses";
import { triggerHook } from "@/lib/boosts/hooks";

// POST /v1/hooks/{token} – a deploy hook: starts the boost, or joins the run already under way
export const POST = withPathToken(operations.triggerHook, async ({ db, params, attribute }) => {
  const { run, coalesced, hook } = await triggerHook(db, params.token);
  attribute({ accountId: hook.accountId, actor: { type: "hook", label: String(hook.id) }, targetId: hook.id });
  return json({ run_id: run.id, status: run.status, coalesced }, 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
