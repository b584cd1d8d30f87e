import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/hooks";
import { noContent } from "@/lib/api/responses";
import { deleteHook } from "@/lib/boosts/hooks";

// DELETE /v1/boosts/{boostId}/hooks/{hookId} – revoke the hook
export const DELETE = withApiKey(operations.deleteBoostHook, async ({ ctx, params }) => {
  await deleteHook(ctx, params.boostId, params.hookId);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
