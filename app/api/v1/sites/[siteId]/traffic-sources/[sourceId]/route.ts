import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/traffic";
import { json, noContent } from "@/lib/api/responses";
import { deleteTrafficSource, getTrafficSource } from "@/lib/traffic/sources";

// GET /v1/sites/{siteId}/traffic-sources/{sourceId} – a traffic source and its last read
export const GET = withApiKey(operations.getTrafficSource, async ({ ctx, params }) => json(await getTrafficSource(ctx, params.siteId, params.sourceId)));

// DELETE /v1/sites/{siteId}/traffic-sources/{sourceId} – the source and the visits it counted
export const DELETE = withApiKey(operations.deleteTrafficSource, async ({ ctx, params }) => {
  await deleteTrafficSource(ctx, params.siteId, params.sourceId);
  return noContent();
});

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
