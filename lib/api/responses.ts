import type { ErrorCode } from "@/lib/core/error-codes";

/** Under this size, compressing an answer costs more than it saves: the `compression` package's own threshold. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A JSON answer. Next.js drops a route handler's Content-Length, so its compression cannot see an
 * answer's size and gzips every one, however small: a zlib stream per answer, 6 to 8 % of the
 * server's thread while warms arrive (docs/benchmarks.md). `no-transform` keeps the answers under
 * 1 KB (most of the API's) as they are; it changes nothing about caching.
 */
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const text = JSON.stringify(body);
  const answerHeaders = new Headers(headers);
  if (!answerHeaders.has("content-type")) answerHeaders.set("content-type", "application/json");
  if (text.length < COMPRESS_FROM_BYTES) {
    const cacheControl = answerHeaders.get("cache-control");
    answerHeaders.set("cache-control", cacheControl ? `${cacheControl}, no-transform` : "no-transform");
  }
  return new Response(text, { status, headers: answerHeaders });
}

/** An error answer: the sentence, its documented code (lib/core/error-codes.ts), and any details. */
export function errorResponse(status: number, code: ErrorCode, error: string, extra?: Record<string, unknown>, headers?: HeadersInit): Response {
  return json({ error, code, ...extra }, status, headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}
