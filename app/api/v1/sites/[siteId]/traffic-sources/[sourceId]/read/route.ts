import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/traffic";
import { json } from "@/lib/api/responses";
import { readTrafficSourceNow } from "@/lib/traffic/sources";

// POST /v1/sites/{siteId}/traffic-sources/{sourceId}/read – read the source now, whatever its schedule
export const POST = withApiKey(operations.readTrafficSource, async ({ ctx, params }) => json(await readTrafficSourceNow(ctx, params.siteId, params.sourceId), 202));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
