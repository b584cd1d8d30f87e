import { createHmac } from "node:crypto";
import { sameBytes } from "./compare";
import type { ChangeSystem } from "./types";

const RESOURCES = ["products", "collections", "pages"];

/**
 * Shopify: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw body under the webhook
 * signing key (the shop's, shown under Settings → Notifications → Webhooks, or the app's client
 * secret). Shopify may deliver a webhook twice: `X-Shopify-Webhook-Id` names it, so a repeat is not
 * queued again.
 */
export const shopify: ChangeSystem = {
  async verify({ headers, body }, secret) {
    const sent = headers["x-shopify-hmac-sha256"];
    if (!sent) return { ok: false, reason: "No X-Shopify-Hmac-Sha256 header: this is not a Shopify webhook delivery." };
    const expected = createHmac("sha256", secret).update(body).digest();
    if (!sameBytes(Buffer.from(sent, "base64"), expected)) {
      return { ok: false, reason: "X-Shopify-Hmac-Sha256 does not match: the receiver's secret must be the key Shopify signs its webhooks with." };
    }
    return { ok: true, eventId: headers["x-shopify-webhook-id"] || undefined };
  },
  read(_payload, headers) {
    const topic = headers["x-shopify-topic"] ?? null;
    const [resource, action] = (topic ?? "").split("/");
    if (!topic || !resource || !RESOURCES.includes(resource)) {
      return { action: "ignore", event: topic, reason: `Topic ${topic ?? "(none)"} changes no page: only products/*, collections/* and pages/* are warmed.` };
    }
    if (action === "delete") return { action: "ignore", event: topic, reason: `Topic ${topic}: a deleted ${resource.slice(0, -1)} has no page to warm.` };
    return { action: "map", key: resource, event: topic };
  },
  defaultTemplates: { products: ["/products/{handle}"], collections: ["/collections/{handle}"], pages: ["/pages/{handle}"] },
  takesTemplates: true,
};
