import { ExpiredRequestException, verifyRequest } from "@contentful/node-apps-toolkit/requests";
import { valueAt } from "../templates";
import { sameSecret, stringAt, utf8 } from "./compare";
import { type ChangeSystem, REPLAY_WINDOW_SECONDS } from "./types";

/** The header an owner adds to a Contentful webhook (Settings → Webhooks → Headers → Add secret header) when not using request verification. */
const CONTENTFUL_SECRET_HEADER = "x-preheat-secret";

const METHODS = new Set(["GET", "PATCH", "HEAD", "POST", "DELETE", "OPTIONS", "PUT"]);

/**
 * Contentful: its request verification (`x-contentful-signature`, an HMAC-SHA256 over the method,
 * path, signed headers and body, with `x-contentful-timestamp` among them), checked by Contentful's
 * own `verifyRequest`; or, for a webhook without it, the secret header `X-Preheat-Secret`.
 */
export const contentful: ChangeSystem = {
  async verify({ method, path, headers, body }, secret) {
    if (headers["x-contentful-signature"]) {
      if (!METHODS.has(method)) return { ok: false, reason: `Contentful does not sign ${method} requests.` };
      try {
        const valid = verifyRequest(secret, { method: method as "POST", path, headers, body: utf8(body) }, REPLAY_WINDOW_SECONDS);
        return valid ? { ok: true } : { ok: false, reason: "x-contentful-signature does not match: the receiver's secret must be the webhook signing secret of the space." };
      } catch (error) {
        if (error instanceof ExpiredRequestException) {
          return { ok: false, reason: `x-contentful-timestamp is more than ${REPLAY_WINDOW_SECONDS} s old: a replayed or delayed delivery is refused.` };
        }
        // The toolkit's validation: a secret that is not 64 characters, or malformed signature headers.
        return {
          ok: false,
          reason:
            secret.length === 64
              ? "The x-contentful-signature, x-contentful-signed-headers or x-contentful-timestamp header is malformed."
              : "This receiver's secret is not a Contentful signing secret (64 characters): set the space's signing secret on the receiver.",
        };
      }
    }
    const sent = headers[CONTENTFUL_SECRET_HEADER];
    if (!sent) return { ok: false, reason: "Neither x-contentful-signature (request verification) nor the X-Preheat-Secret header was sent." };
    return sameSecret(sent, secret) ? { ok: true } : { ok: false, reason: "X-Preheat-Secret does not match the receiver's secret." };
  },
  read(payload, headers) {
    const topic = headers["x-contentful-topic"] ?? null;
    const sys = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>).sys : undefined;
    const type = stringAt(sys, "type");
    const isEntry = topic ? topic.includes(".Entry.") : type === "Entry";
    if (!isEntry) return { action: "ignore", event: topic ?? type ?? null, reason: `${topic ?? type ?? "This event"} is not about an entry: only entries map to pages.` };
    const action = topic?.split(".").at(-1);
    if (action === "delete" || action === "archive") return { action: "ignore", event: topic, reason: `${topic}: a deleted or archived entry has no page to warm.` };
    const contentType = valueAt(payload, "sys.contentType.sys.id");
    return { action: "map", key: typeof contentType === "string" ? contentType : undefined, event: topic };
  },
  defaultTemplates: {},
  takesTemplates: true,
};
