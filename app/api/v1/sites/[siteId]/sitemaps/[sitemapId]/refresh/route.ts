import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sitemaps";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { refreshSitemap, toSitemap } from "@/lib/sitemaps/service";

// POST /v1/sites/{siteId}/sitemaps/{sitemapId}/refresh – read the sitemap again now (in the background)
export const POST = withApiKey(operations.refreshSitemap, async ({ ctx, params }) => json(toSitemap(await refreshSitemap(ctx, params.siteId, params.sitemapId)), 202));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
