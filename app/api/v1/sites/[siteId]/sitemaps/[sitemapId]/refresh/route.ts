import { withApiKey } from "@/lib/api/handler";
import { siteSitemapParams } from "@/lib/api/params";
import { json, otherMethods } from "@/lib/api/responses";
import { refreshSitemap, toSitemap } from "@/lib/sitemaps/service";

// POST /v1/sites/{siteId}/sitemaps/{sitemapId}/refresh – read the sitemap again now (in the background)
export const POST = withApiKey({ scope: "sites:write", params: siteSitemapParams }, async ({ ctx, params }) =>
  json(toSitemap(await refreshSitemap(ctx, params.siteId, params.sitemapId)), 202),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
