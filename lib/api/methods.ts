import { getDb } from "@/lib/db";
import { routeOf } from "@/lib/observability/requests";
import { answer, budgetSubject } from "./handler";
import { errorResponse } from "./responses";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * An answer that authenticates nobody (a 404, a 405, the public document), drawn from the client
 * address's budget like any request without a valid key, and carrying its RateLimit-* headers.
 */
export function answerFromClientBudget(request: Request, respond: () => Response | Promise<Response>): Promise<Response> {
  return answer(request, { path: routeOf(request) }, async (meter) => (await meter.spend(await getDb(), budgetSubject(request, undefined))) ?? respond());
}

/**
 * JSON 405 answers for the methods a route does not serve (Next's own 405 has no body):
 * `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");`
 */
export function otherMethods(...allowed: Method[]): Record<Method, (request: Request) => Promise<Response>> {
  const answer = (request: Request) =>
    answerFromClientBudget(request, () => errorResponse(405, "method_not_allowed", `Method not allowed here: use ${allowed.join(" or ")}.`, undefined, { allow: allowed.join(", ") }));
  return Object.fromEntries(METHODS.map((method) => [method, answer])) as Record<Method, (request: Request) => Promise<Response>>;
}
