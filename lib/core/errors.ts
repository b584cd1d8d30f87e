import type { ErrorCode } from "./error-codes";

/**
 * Transport-neutral domain errors. lib/ throws these; the HTTP edge (lib/api/errors.ts)
 * maps them to statuses in one place, the CLI prints their message.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
    /** The documented code (lib/core/error-codes.ts) when the class's own is not precise enough, e.g. which conflict. */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** What the error's JSON body says beside `error`, `code` and `details` (which limit refused it, say). */
  bodyFields(): Record<string, unknown> | undefined {
    return undefined;
  }
}

/** The thing does not exist, or belongs to another account (existence must not leak). */
export class NotFoundError extends DomainError {}
/** The request is valid but clashes with the current state (duplicate, run in progress). */
export class ConflictError extends DomainError {}
/** A field value is invalid. */
export class InvalidError extends DomainError {}
/** The caller is known but not allowed (missing scope). */
export class ForbiddenError extends DomainError {}
/** The account's monthly call quota cannot cover the request. */
export class QuotaExceededError extends ForbiddenError {}
/** Too many of something in a period; it may be tried again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code: ErrorCode = "rate_limited",
  ) {
    super(message, undefined, code);
  }
}
/** What was sent cannot be read at all (a body that is not JSON): the caller must send something else. */
export class MalformedError extends DomainError {}
/** No valid credentials. */
export class UnauthenticatedError extends DomainError {}

export function notFound(what: string): NotFoundError {
  return new NotFoundError(`${what} not found.`);
}
