import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  QuotaExceededError,
  TooManyRequestsError,
  UnauthenticatedError,
} from "@/lib/errors";
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

const statusOf = new Map<Function, number>([
  [UnauthenticatedError, 401],
  [QuotaExceededError, 403],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [InvalidError, 422],
  [TooManyRequestsError, 429],
]);

/** The one place where domain errors become HTTP statuses; anything unknown is a masked 500. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof RequestError) return errorResponse(error.status, error.message, error.details ? { details: error.details } : undefined);
  if (error instanceof DomainError) {
    let status = 400;
    for (let type = error.constructor; type && type !== Object; type = Object.getPrototypeOf(type)) {
      const mapped = statusOf.get(type);
      if (mapped) {
        status = mapped;
        break;
      }
    }
    const headers = error instanceof TooManyRequestsError ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
    return errorResponse(status, error.message, error.details ? { details: error.details } : undefined, headers);
  }
  console.error("[api] unhandled error", error);
  return errorResponse(500, "Internal server error.");
}
