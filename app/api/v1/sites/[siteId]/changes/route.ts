import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/changes";
import { json } from "@/lib/api/responses";
import { queueChanges } from "@/lib/changes/queue";
import { changesWaiting } from "@/lib/changes/waiting";

// POST /v1/sites/{siteId}/changes – pages that changed, warmed after a short delay ahead of the site's other runs
export const POST = withApiKey(operations.queueChanges, async ({ ctx, params, body }) => {
  return json(await queueChanges(ctx, params.siteId, body), 202);
});

// GET /v1/sites/{siteId}/changes – the changes waiting to be warmed, and the site's last changes runs
export const GET = withApiKey(operations.getChangesWaiting, async ({ ctx, params }) => json(await changesWaiting(ctx, params.siteId)));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
