import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sites";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { deleteSite, getSite, toSite, updateSite } from "@/lib/sites/service";

// GET /v1/sites/{siteId} – one site, with its validation token
export const GET = withApiKey(operations.getSite, async ({ ctx, params }) => json(toSite(await getSite(ctx, params.siteId))));

// PATCH /v1/sites/{siteId} – the site's own pace: max_concurrency, max_requests_per_second
export const PATCH = withApiKey(operations.updateSite, async ({ ctx, params, body }) => json(toSite(await updateSite(ctx, params.siteId, body))));

// DELETE /v1/sites/{siteId} – delete a site with its sitemaps, boosts and runs
export const DELETE = withApiKey(operations.deleteSite, async ({ ctx, params }) => {
  await deleteSite(ctx, params.siteId);
  return noContent();
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
