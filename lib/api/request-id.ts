export const REQUEST_ID_HEADER = "x-request-id";

/** 1 to 128 letters, digits, `-`, `_` or `.`: what a caller's own id may be (anything else could forge log lines). */
const ACCEPTED = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's request id when it is a sensible one, otherwise a new one. */
export function requestIdFor(incoming: string | null): string {
  return incoming && ACCEPTED.test(incoming) ? incoming : crypto.randomUUID();
}
