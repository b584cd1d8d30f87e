import { createHash } from "node:crypto";

/**
 * How every secret token is stored: API keys, deploy hooks' tokens, the links of sign-up,
 * invitations and changes of address. Only this SHA-256 is kept; the token is shown once.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
