import { logRequest } from "./log";
import { metrics } from "./metrics";

/** The one label of every path no route declares: a 404 from the catch-all adds no series, whatever was asked for. */
export const UNMATCHED_ROUTE = "unmatched";

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The route that answers a request, as its file declares it (`/v1/hooks/{token}`): the path with each
 * of the route's dynamic segments (`params`, which Next.js gives in path order, decoded) named instead
 * of given. Never the concrete path: a secret token in it would become a label and a log field, and
 * every id a new series. Every other segment is one of the route file's own, so the labels are as few
 * as the routes; the query string is never part of it.
 */
export function routeOf(request: Request, params: Record<string, string | string[]> = {}): string {
  const segments = new URL(request.url).pathname.replace(/^\/api\/v1(?=\/|$)/, "/v1").split("/");
  const named = Object.entries(params);
  // A catch-all's segments are anything at all.
  if (named.some(([, value]) => Array.isArray(value))) return UNMATCHED_ROUTE;
  let next = 0;
  const template = segments.map((segment) => {
    const param = named[next];
    const text = decoded(segment) ?? segment;
    if (!param || text !== param[1]) return text;
    next++;
    return `{${param[0]}}`;
  });
  return next === named.length ? template.join("/") : UNMATCHED_ROUTE;
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
