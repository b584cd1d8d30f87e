import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/changes";
import { json } from "@/lib/api/responses";
import { rotateReceiverSecret } from "@/lib/changes/receivers";

// POST /v1/sites/{siteId}/change-receivers/{receiverId}/rotate-secret – a new secret, shown once
export const POST = withApiKey(operations.rotateChangeReceiverSecret, async ({ ctx, params }) => json(await rotateReceiverSecret(ctx, params.siteId, params.receiverId)));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
