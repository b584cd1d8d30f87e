import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { listRuns } from "@/lib/runs/service";

// GET /v1/runs – boost runs, newest first, optionally of one boost
export const GET = withApiKey(operations.listRuns, async ({ ctx, query: { boost_id, ...page } }) => {
  const { data, total } = await listRuns(ctx, { boostId: boost_id }, page);
  return json({ data, total, ...page });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
