import { withApiKey } from "@/lib/api/handler";
import { siteParams } from "@/lib/api/params";
import { json, otherMethods } from "@/lib/api/responses";
import { validateSite } from "@/lib/sites/validate";

// POST /v1/sites/{siteId}/validate – check the ownership proof now
export const POST = withApiKey({ scope: "sites:write", params: siteParams }, async ({ ctx, params }) => {
  const result = await validateSite(ctx, params.siteId);
  return json(result, result.validated ? 200 : 422);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
