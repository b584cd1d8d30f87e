import { withApiKey } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/pagination";
import { json, otherMethods } from "@/lib/api/responses";
import { createSiteBody } from "@/lib/sites/schemas";
import { createSite, listSites, toSite } from "@/lib/sites/service";

// GET /v1/sites – list the account's sites
export const GET = withApiKey({ scope: "sites:read", query: paginationQuery }, async ({ ctx, query }) => {
  const { rows, total } = await listSites(ctx, query);
  return json({ data: rows.map(toSite), total, ...query });
});

// POST /v1/sites – register a site
export const POST = withApiKey({ scope: "sites:write", body: createSiteBody }, async ({ ctx, body }) =>
  json(toSite(await createSite(ctx, body)), 201),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
