import { signatureHeaders, type Signer } from "web-bot-auth";
import { publicBaseUrl } from "@/lib/config/base-url";

/**
 * How a warming call says it is Preheat's, to the firewall in front of the site: the site's
 * verification secret in `Preheat-Verification` (a firewall rule compares it), and, when the
 * operator turns signatures on, an HTTP Message Signature as Web Bot Auth defines it (verifiers
 * that know Web Bot Auth, Cloudflare's verified bots, check it against the key directory).
 */

/** Lower-cased, as every header of a warming call is. */
export const VERIFICATION_HEADER = "preheat-verification";
export const KEY_DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";
/** A signature is good this long after it is made: enough for the slowest call, short for a replay. */
const SIGNATURE_LIFETIME_MS = 5 * 60_000;

/** What a run's calls identify themselves with (carried on its RunRequest). */
export type Identity = {
  /** The site's verification secret; null for a site that has none yet (it is made on first read). */
  verification: string | null;
  /** The signer of this process's calls; null while signatures are off. */
  signer: Signer | null;
};

/**
 * `Signature-Agent`: where verifiers find the keys. A bare string, the form Cloudflare verifies and
 * the library signs today (the working group's dictionary form needs a `key` parameter the library
 * does not resolve yet).
 */
function signatureAgent(): string {
  return `"${publicBaseUrl()}${KEY_DIRECTORY_PATH}"`;
}

/** The headers that identify the call to `url`: none, the verification header, or it and a signature of `@authority` and `signature-agent`. */
export async function identifyingHeaders(url: string, identity: Identity): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (identity.verification) headers[VERIFICATION_HEADER] = identity.verification;
  if (identity.signer) {
    headers["signature-agent"] = signatureAgent();
    const created = new Date();
    const signed = await signatureHeaders({ method: "GET", url, headers }, identity.signer, { created, expires: new Date(created.getTime() + SIGNATURE_LIFETIME_MS) });
    headers["signature-input"] = signed["Signature-Input"];
    headers.signature = signed.Signature;
  }
  return headers;
}
