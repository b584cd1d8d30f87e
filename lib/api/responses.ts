export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

export function errorResponse(status: number, error: string, extra?: Record<string, unknown>, headers?: HeadersInit): Response {
  return json({ error, ...extra }, status, headers);
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
    json({ error: `Method not allowed here: use ${allowed.join(" or ")}.` }, 405, { allow: allowed.join(", ") });
  return Object.fromEntries(METHODS.map((method) => [method, answer])) as Record<Method, () => Promise<Response>>;
}
