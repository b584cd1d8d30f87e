import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sitemaps";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { addSitemap, discoverAndAddSitemaps, listSitemaps, toSitemap } from "@/lib/sitemaps/service";

// GET /v1/sites/{siteId}/sitemaps – the site's sitemaps and their processing status
export const GET = withApiKey(operations.listSitemaps, async ({ ctx, params, query }) => {
  const { rows, total } = await listSitemaps(ctx, params.siteId, query);
  return json({ data: rows.map(toSitemap), total, ...query });
});

// POST /v1/sites/{siteId}/sitemaps – add a sitemap or feed (or, with discover, every sitemap the site announces); processed in the background
export const POST = withApiKey(operations.addSitemap, async ({ ctx, params, body }) =>
  body.discover ? json({ data: (await discoverAndAddSitemaps(ctx, params.siteId)).map(toSitemap) }, 201) : json(toSitemap(await addSitemap(ctx, params.siteId, body)), 201),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
