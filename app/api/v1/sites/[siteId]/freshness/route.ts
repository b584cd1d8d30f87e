import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { siteFreshness } from "@/lib/freshness/history";

// GET /v1/sites/{siteId}/freshness – the site's pages fresh in the CDN, and its calls, hour by hour
export const GET = withApiKey(operations.getSiteFreshness, async ({ ctx, params, query }) => json(await siteFreshness(ctx, params.siteId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
