import { withApiKey } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/pagination";
import { json, otherMethods } from "@/lib/api/responses";
import { runsListQuery } from "@/lib/runs/schemas";
import { listRuns } from "@/lib/runs/service";

const query = paginationQuery.extend(runsListQuery.shape);

// GET /v1/runs – boost runs, newest first, optionally of one boost
export const GET = withApiKey({ scope: "runs:read", query }, async ({ ctx, query: { boost_id, ...page } }) => {
  const { data, total } = await listRuns(ctx, { boostId: boost_id }, page);
  return json({ data, total, ...page });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
