import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/traffic";
import { json } from "@/lib/api/responses";
import { getTrafficPage, trafficCsv } from "@/lib/traffic/table";

// GET /v1/sites/{siteId}/traffic – the popularity table, most visited first (JSON pages, or all of it as CSV)
export const GET = withApiKey(operations.getTraffic, async ({ ctx, params, query: { format, ...page } }) => {
  if (format === "csv") {
    return new Response(await trafficCsv(ctx, params.siteId), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="site-${params.siteId}-traffic.csv"` },
    });
  }
  return json(await getTrafficPage(ctx, params.siteId, page));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
