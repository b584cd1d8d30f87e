import { createHmac } from "node:crypto";
import { valueAt } from "../templates";
import { sameBytes, stringAt } from "./compare";
import type { ChangeSystem } from "./types";

/**
 * Vercel: `x-vercel-signature` is the hex HMAC-SHA1 of the raw body under the webhook's secret
 * (shown when the webhook is created in Vercel). Only `deployment.succeeded` of a production
 * deployment is warmed: a preview's URL is not the site.
 */
export const vercel: ChangeSystem = {
  async verify({ headers, body }, secret) {
    const sent = headers["x-vercel-signature"];
    if (!sent) return { ok: false, reason: "No x-vercel-signature header: this is not a Vercel webhook delivery." };
    const expected = createHmac("sha1", secret).update(body).digest();
    if (!/^[0-9a-f]{40}$/i.test(sent) || !sameBytes(Buffer.from(sent, "hex"), expected)) {
      return { ok: false, reason: "x-vercel-signature does not match: the receiver's secret must be the Vercel webhook's secret." };
    }
    return { ok: true };
  },
  read(payload) {
    const type = stringAt(payload, "type") ?? null;
    if (type !== "deployment.succeeded") return { action: "ignore", event: type, reason: `Event ${type ?? "(none)"} is not warmed: only deployment.succeeded is.` };
    const target = valueAt(payload, "payload.target");
    // Vercel sends `target: null` for a preview deployment.
    if (target !== undefined && target !== "production") {
      return { action: "ignore", event: type, reason: `A ${target === null ? "preview" : String(target)} deployment: only production deployments serve the site.` };
    }
    return { action: "deploy", event: type };
  },
  defaultTemplates: {},
  takesTemplates: false,
};
