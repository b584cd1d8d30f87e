import { getDb } from "@/lib/db";
import { routeOf } from "@/lib/observability/requests";
import { answer, budgetSubject, type RouteContext } from "./handler";
import { errorResponse } from "./responses";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** The 405 of a method the route does not serve, naming those it does. */
export function methodNotAllowed(allowed: readonly Method[]): Response {
  return errorResponse(405, "method_not_allowed", `Method not allowed here: use ${allowed.join(" or ")}.`, undefined, { allow: allowed.join(", ") });
}

/**
 * An answer that authenticates nobody (a 404, a 405, the public document), drawn from the client
 * address's budget like any request without a valid key, and carrying its RateLimit-* headers.
 * `route` labels its metrics and log line: by default the request's path, right for a route
 * without dynamic segments; a route with some names them (routeOf).
 */
export function answerFromClientBudget(request: Request, respond: () => Response | Promise<Response>, route = routeOf(request)): Promise<Response> {
  return answer(request, { path: route }, async (meter) => (await meter.spend(await getDb(), budgetSubject(request, undefined))) ?? respond());
}

/**
 * JSON 405 answers for the methods a route does not serve (Next's own 405 has no body):
 * `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");`
 */
export function otherMethods(...allowed: Method[]): Record<Method, (request: Request, route?: RouteContext) => Promise<Response>> {
  const answer = async (request: Request, route?: RouteContext) => answerFromClientBudget(request, () => methodNotAllowed(allowed), routeOf(request, await route?.params));
  return Object.fromEntries(METHODS.map((method) => [method, answer])) as Record<Method, (request: Request, route?: RouteContext) => Promise<Response>>;
}
