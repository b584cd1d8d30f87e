import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/changes";
import { json, noContent } from "@/lib/api/responses";
import { deleteReceiver, getReceiver, updateReceiver } from "@/lib/changes/receivers";

// GET /v1/sites/{siteId}/change-receivers/{receiverId} – one receiver, without its secret
export const GET = withApiKey(operations.getChangeReceiver, async ({ ctx, params }) => json(await getReceiver(ctx, params.siteId, params.receiverId)));

// PATCH /v1/sites/{siteId}/change-receivers/{receiverId} – new templates, or the system's own secret
export const PATCH = withApiKey(operations.updateChangeReceiver, async ({ ctx, params, body }) => json(await updateReceiver(ctx, params.siteId, params.receiverId, body)));

// DELETE /v1/sites/{siteId}/change-receivers/{receiverId} – its URL answers 404 from now on
export const DELETE = withApiKey(operations.deleteChangeReceiver, async ({ ctx, params }) => {
  await deleteReceiver(ctx, params.siteId, params.receiverId);
  return noContent();
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
