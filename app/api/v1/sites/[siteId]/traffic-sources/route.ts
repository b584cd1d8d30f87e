import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/traffic";
import { json } from "@/lib/api/responses";
import { createTrafficSource, listTrafficSources } from "@/lib/traffic/sources";

// POST /v1/sites/{siteId}/traffic-sources – add an access log, Plausible or GA4 as a source of the site's visits
export const POST = withApiKey(operations.createTrafficSource, async ({ ctx, params, body }) => json(await createTrafficSource(ctx, params.siteId, body), 201));

// GET /v1/sites/{siteId}/traffic-sources – the site's traffic sources and their last reads
export const GET = withApiKey(operations.listTrafficSources, async ({ ctx, params }) => json(await listTrafficSources(ctx, params.siteId)));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
