import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sites";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { createSite, listSites, toSite } from "@/lib/sites/service";

// GET /v1/sites – list the account's sites
export const GET = withApiKey(operations.listSites, async ({ ctx, query }) => {
  const { rows, total } = await listSites(ctx, query);
  return json({ data: rows.map(toSite), total, ...query });
});

// POST /v1/sites – register a site
export const POST = withApiKey(operations.createSite, async ({ ctx, body }) => json(toSite(await createSite(ctx, body)), 201));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
