/** Why an outbound request was refused or failed, in words a site owner can act on. */
export class FetchError extends Error {
  constructor(
    readonly kind: "blocked_address" | "timeout" | "too_large" | "too_many_redirects" | "invalid_url" | "network",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "FetchError";
  }
}
