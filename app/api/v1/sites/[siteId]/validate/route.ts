import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/sites";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { validateSite } from "@/lib/sites/validate";

// POST /v1/sites/{siteId}/validate – check the ownership proof now
export const POST = withApiKey(operations.validateSite, async ({ ctx, params }) => {
  const result = await validateSite(ctx, params.siteId);
  return json(result, result.validated ? 200 : 422);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
