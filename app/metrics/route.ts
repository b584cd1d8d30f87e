import { timingSafeEqual } from "node:crypto";
import { setting } from "@/lib/config";
import { getDb } from "@/lib/db";
import { metrics } from "@/lib/observability/metrics";
import { refreshServiceGauges } from "@/lib/observability/service-state";

// GET /metrics – Prometheus text format; with PREHEAT_METRICS_TOKEN set, only with `Authorization: Bearer <token>`
export const dynamic = "force-dynamic";

function authorised(request: Request): boolean {
  const token = setting("PREHEAT_METRICS_TOKEN");
  if (!token) return true;
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  const [a, b] = [Buffer.from(sent), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function GET(request: Request) {
  if (!authorised(request)) {
    return Response.json({ error: "Send the metrics token: Authorization: Bearer <PREHEAT_METRICS_TOKEN>.", code: "invalid_api_key" }, { status: 401, headers: { "www-authenticate": "Bearer" } });
  }
  const { registry } = metrics();
  // The service-wide gauges come from the database; should it not answer, the process's own metrics still do.
  await refreshServiceGauges(await getDb()).catch(() => undefined);
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}
