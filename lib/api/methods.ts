import { getDb } from "@/lib/db";
import { recordRequest, routeOf } from "@/lib/observability/requests";
import { toErrorResponse } from "./errors";
import { budgetSubject, spendBudget, withHeaders } from "./handler";
import { rateLimitHeaders } from "./rate-limit";
import { REQUEST_ID_HEADER } from "./request-id";
import { errorResponse } from "./responses";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * An answer that authenticates nobody (a 404, a 405, the public document), drawn from the client
 * address's budget like any request without a valid key, and carrying its RateLimit-* headers.
 */
export async function answerFromClientBudget(request: Request, answer: () => Response | Promise<Response>): Promise<Response> {
  const started = performance.now();
  const spent = await spendBudget(await getDb(), budgetSubject(request, undefined));
  let response: Response;
  try {
    response = spent.refusal ?? (await answer());
  } catch (error) {
    response = toErrorResponse(error, request.headers.get(REQUEST_ID_HEADER) ?? undefined);
  }
  response = withHeaders(response, rateLimitHeaders(spent.state));
  recordRequest(request, response, started, { path: routeOf(request) });
  return response;
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
