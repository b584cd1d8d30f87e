import { ConflictError, DomainError, ForbiddenError, InvalidError, MalformedError, NotFoundError, QuotaExceededError, TooManyRequestsError, UnauthenticatedError } from "@/lib/core/errors";
import { logger } from "@/lib/observability/log";
import type { ErrorCode } from "@/lib/core/error-codes";
import { errorResponse } from "./responses";

/** An error raised while reading the request itself (body, query, path). */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Each domain error's status, and its code unless the error names a more precise one. */
const answerOf = new Map<unknown, { status: number; code: ErrorCode }>([
  [UnauthenticatedError, { status: 401, code: "invalid_api_key" }],
  [QuotaExceededError, { status: 403, code: "quota_exceeded" }],
  [ForbiddenError, { status: 403, code: "insufficient_scope" }],
  [NotFoundError, { status: 404, code: "not_found" }],
  [ConflictError, { status: 409, code: "conflict" }],
  [InvalidError, { status: 422, code: "validation_failed" }],
  [MalformedError, { status: 400, code: "invalid_json" }],
  [TooManyRequestsError, { status: 429, code: "rate_limited" }],
]);

const requestErrorCodes: Record<number, ErrorCode> = { 400: "invalid_json", 413: "payload_too_large", 415: "unsupported_media_type", 422: "validation_failed" };

/** The one place where domain errors become HTTP statuses; anything unknown is a masked 500. */
export function toErrorResponse(error: unknown, requestId?: string): Response {
  if (error instanceof RequestError) {
    return errorResponse(error.status, requestErrorCodes[error.status] ?? "validation_failed", error.message, error.details ? { details: error.details } : undefined);
  }
  if (error instanceof DomainError) {
    let answer: { status: number; code: ErrorCode } = { status: 422, code: "validation_failed" };
    for (let type = error.constructor; type && type !== Object; type = Object.getPrototypeOf(type)) {
      const mapped = answerOf.get(type);
      if (mapped) {
        answer = mapped;
        break;
      }
    }
    const headers = error instanceof TooManyRequestsError ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
    const fields = { ...error.bodyFields(), ...(error.details ? { details: error.details } : {}) };
    return errorResponse(answer.status, error.code ?? answer.code, error.message, Object.keys(fields).length ? fields : undefined, headers);
  }
  logger().error({ request_id: requestId, err: error }, "unhandled error");
  return errorResponse(500, "internal_error", "Internal server error.");
}
