import { withApiKey } from "@/lib/api/handler";
import { siteSitemapParams } from "@/lib/api/params";
import { json, noContent, otherMethods } from "@/lib/api/responses";
import { deleteSitemap, getSitemap, toSitemap } from "@/lib/sitemaps/service";

// GET /v1/sites/{siteId}/sitemaps/{sitemapId} – one sitemap and its processing status
export const GET = withApiKey({ scope: "sites:read", params: siteSitemapParams }, async ({ ctx, params }) =>
  json(toSitemap(await getSitemap(ctx, params.siteId, params.sitemapId))),
);

// DELETE /v1/sites/{siteId}/sitemaps/{sitemapId} – remove a sitemap and its URLs
export const DELETE = withApiKey({ scope: "sites:write", params: siteSitemapParams }, async ({ ctx, params }) => {
  await deleteSitemap(ctx, params.siteId, params.sitemapId);
  return noContent();
});

export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
