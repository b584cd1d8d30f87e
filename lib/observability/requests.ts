import { logRequest } from "./log";
import { metrics } from "./metrics";

/** A concrete path as a route label: numeric ids become `{id}`, so that labels stay few. */
export function routeOf(request: Request): string {
  return new URL(request.url).pathname.replace(/^\/api\/v1\//, "/v1/").replace(/\/\d+(?=\/|$)/g, "/{id}");
}

/** Who made the request, as far as it proved it. */
export type Caller = { accountId: number; keyPrefix?: string };

/** The request's one log line and its metrics, once its answer is ready. */
export function recordRequest(
  request: Request,
  response: Response,
  started: number,
  route: { path: string; operationId?: string },
  { requestId, caller }: { requestId: string; caller?: Caller },
): void {
  const durationMs = performance.now() - started;
  const operation = route.operationId ?? route.path;
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc({ operation, method: request.method, status: String(response.status) });
  httpDuration.observe({ operation }, durationMs / 1000);
  logRequest({
    request_id: requestId,
    method: request.method,
    route: route.path,
    operation: route.operationId,
    status: response.status,
    duration_ms: durationMs,
    account_id: caller?.accountId,
    key_prefix: caller?.keyPrefix || undefined,
  });
}
