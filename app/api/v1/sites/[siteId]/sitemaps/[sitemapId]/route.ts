import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sitemaps";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { deleteSitemap, getSitemap, toSitemap } from "@/lib/sitemaps/service";

// GET /v1/sites/{siteId}/sitemaps/{sitemapId} – one sitemap and its processing status
export const GET = withApiKey(operations.getSitemap, async ({ ctx, params }) => json(toSitemap(await getSitemap(ctx, params.siteId, params.sitemapId))));

// DELETE /v1/sites/{siteId}/sitemaps/{sitemapId} – remove a sitemap and its URLs
export const DELETE = withApiKey(operations.deleteSitemap, async ({ ctx, params }) => {
  await deleteSitemap(ctx, params.siteId, params.sitemapId);
  return noContent();
});

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
