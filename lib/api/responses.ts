import type { ErrorCode } from "./error-codes";

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

/** An error answer: the sentence, its documented code (lib/api/error-codes.ts), and any details. */
export function errorResponse(status: number, code: ErrorCode, error: string, extra?: Record<string, unknown>, headers?: HeadersInit): Response {
  return json({ error, code, ...extra }, status, headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * JSON 405 answers for the methods a route does not serve (Next's own 405 has no body):
 * `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");`
 */
export function otherMethods(...allowed: Method[]): Record<Method, () => Promise<Response>> {
  const answer = async () =>
    errorResponse(405, "method_not_allowed", `Method not allowed here: use ${allowed.join(" or ")}.`, undefined, { allow: allowed.join(", ") });
  return Object.fromEntries(METHODS.map((method) => [method, answer])) as Record<Method, () => Promise<Response>>;
}
