import type { ErrorCode } from "@/lib/core/error-codes";

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

/** An error answer: the sentence, its documented code (lib/core/error-codes.ts), and any details. */
export function errorResponse(status: number, code: ErrorCode, error: string, extra?: Record<string, unknown>, headers?: HeadersInit): Response {
  return json({ error, code, ...extra }, status, headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}
