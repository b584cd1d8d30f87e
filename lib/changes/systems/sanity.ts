import { decodeSignatureHeader, isValidSignature, SIGNATURE_HEADER_NAME } from "@sanity/webhook";
import { stringAt, utf8 } from "./compare";
import { type ChangeSystem, REPLAY_WINDOW_SECONDS } from "./types";

/**
 * Sanity: `sanity-webhook-signature: t=<ms>,v1=<base64url HMAC-SHA256 of "<t>.<body>">` under the
 * webhook's secret, checked with Sanity's own `@sanity/webhook`; `t` older than the replay window
 * is refused.
 */
export const sanity: ChangeSystem = {
  async verify({ headers, body }, secret, now) {
    const sent = headers[SIGNATURE_HEADER_NAME];
    if (!sent) return { ok: false, reason: "No sanity-webhook-signature header: set a secret on the Sanity webhook." };
    let signedAt: number;
    try {
      signedAt = decodeSignatureHeader(sent).timestamp;
    } catch {
      return { ok: false, reason: "The sanity-webhook-signature header is malformed (expected `t=<ms>,v1=<signature>`)." };
    }
    if (Math.abs(now - signedAt) > REPLAY_WINDOW_SECONDS * 1000) {
      return { ok: false, reason: `The signature's time (t=) is more than ${REPLAY_WINDOW_SECONDS} s from now: a replayed or delayed delivery is refused.` };
    }
    let valid = false;
    try {
      valid = await isValidSignature(utf8(body), sent, secret);
    } catch {
      valid = false;
    }
    return valid ? { ok: true } : { ok: false, reason: "sanity-webhook-signature does not match: the receiver's secret must be the webhook's secret in Sanity." };
  },
  read(payload, headers) {
    const operation = headers["sanity-operation"] ?? null;
    if (operation === "delete") return { action: "ignore", event: operation, reason: "A deleted document has no page to warm." };
    return { action: "map", key: stringAt(payload, "_type"), event: stringAt(payload, "_type") ?? operation };
  },
  defaultTemplates: {},
  takesTemplates: true,
};
