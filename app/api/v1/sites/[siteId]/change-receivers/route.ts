import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/changes";
import { json } from "@/lib/api/responses";
import { createReceiver, listReceivers } from "@/lib/changes/receivers";

// GET /v1/sites/{siteId}/change-receivers – the site's change receivers, without their secrets
export const GET = withApiKey(operations.listChangeReceivers, async ({ ctx, params }) => json(await listReceivers(ctx, params.siteId)));

// POST /v1/sites/{siteId}/change-receivers – a new receiver; its secret is shown once
export const POST = withApiKey(operations.createChangeReceiver, async ({ ctx, params, body }) => json(await createReceiver(ctx, params.siteId, body), 201));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
