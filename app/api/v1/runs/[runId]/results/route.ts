import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/runs";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { listRunResults, runResultsCsv } from "@/lib/runs/results";

// GET /v1/runs/{runId}/results – the run's calls in call order, by default those that did not end as a cache hit (JSON pages, or all of them as CSV)
export const GET = withApiKey(operations.listRunResults, async ({ ctx, params, query: { calls, reason, region, url, format, ...page } }) => {
  const filters = { calls, reason, region, url };
  if (format === "csv") {
    const csv = await runResultsCsv(ctx, params.runId, filters);
    return new Response(csv, {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="run-${params.runId}-results.csv"` },
    });
  }
  return json(await listRunResults(ctx, params.runId, filters, page));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
