export type FetchErrorKind = "blocked_address" | "timeout" | "too_large" | "too_many_redirects" | "invalid_url" | "network";

/**
 * Why an outbound request was refused or failed, in words a site owner can act on. Callers decide
 * by `kind` (and `transient`), never by the words.
 */
export class FetchError extends Error {
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "FetchError";
  }

  /** Asking again later may succeed: the network failed or the site was too slow. */
  get transient(): boolean {
    return this.kind === "network" || this.kind === "timeout";
  }
}
