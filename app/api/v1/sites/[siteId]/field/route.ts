import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/field";
import { json } from "@/lib/api/responses";
import { siteField } from "@/lib/traffic/field/field";

// GET /v1/sites/{siteId}/field – what the site's visitors got (the beacon's field data): hit ratio and TTFB by hour, device and PoP region
export const GET = withApiKey(operations.getSiteField, async ({ ctx, params, query }) => json(await siteField(ctx, params.siteId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
