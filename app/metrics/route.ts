import { getDb } from "@/lib/db";
import { METRICS_REFUSED, mayReadMetrics, metricsText } from "@/lib/observability/metrics-endpoint";

// GET /metrics – Prometheus text format; with PREHEAT_METRICS_TOKEN set, only with `Authorization: Bearer <token>`
export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  if (!mayReadMetrics(request.headers.get("authorization"))) return Response.json(METRICS_REFUSED, { status: 401, headers: { "www-authenticate": "Bearer" } });
  const { text, contentType } = await metricsText(getDb);
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
