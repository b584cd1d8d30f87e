import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import { bearerCredential } from "@/lib/auth/bearer";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { metrics } from "./metrics";
import { refreshServiceGauges } from "./service-state";

/** Whether a request may read the metrics: always without PREHEAT_METRICS_TOKEN, otherwise only with `Authorization: Bearer <token>`. */
export function mayReadMetrics(authorization: string | null | undefined): boolean {
  const token = setting("PREHEAT_METRICS_TOKEN");
  if (!token) return true;
  const sent = bearerCredential(authorization) ?? "";
  const [a, b] = [Buffer.from(sent), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

export const METRICS_REFUSED = { error: "Send the metrics token: Authorization: Bearer <PREHEAT_METRICS_TOKEN>.", code: "invalid_api_key" };

/** The scrape's text: the service-wide gauges read from the database first (when it answers), then every metric of this process. */
export async function metricsText(db: () => Promise<Database>): Promise<{ text: string; contentType: string }> {
  const { registry } = metrics();
  await db()
    .then(refreshServiceGauges)
    .catch(() => undefined);
  return { text: await registry.metrics(), contentType: registry.contentType };
}

/** A worker's own `GET /metrics` (PREHEAT_WORKER_METRICS_PORT): a worker has no web server, and its calls are counted where they are made. */
export function serveWorkerMetrics(port: number, db: () => Promise<Database>): http.Server {
  const server = http.createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") return void response.writeHead(404).end();
    if (!mayReadMetrics(request.headers.authorization)) return void response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify(METRICS_REFUSED));
    metricsText(db).then(
      ({ text, contentType }) => response.writeHead(200, { "content-type": contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  return server.listen(port);
}
