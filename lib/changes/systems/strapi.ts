import { sameSecret, stringAt } from "./compare";
import type { ChangeSystem } from "./types";

const WARMED_EVENTS = ["entry.publish", "entry.update", "entry.unpublish"];

/**
 * Strapi signs nothing: its webhook settings take headers, and the owner adds
 * `Authorization: Bearer <secret>`, compared here in constant time.
 */
export const strapi: ChangeSystem = {
  async verify({ headers }, secret) {
    const sent = headers.authorization;
    const token = sent?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    if (!token) return { ok: false, reason: "No `Authorization: Bearer <secret>` header: add it to the Strapi webhook's headers." };
    return sameSecret(token, secret) ? { ok: true } : { ok: false, reason: "The Authorization header's secret does not match the receiver's." };
  },
  read(payload) {
    const event = stringAt(payload, "event") ?? null;
    if (!event || !WARMED_EVENTS.includes(event)) {
      return { action: "ignore", event, reason: `Event ${event ?? "(none)"} is not warmed: only ${WARMED_EVENTS.join(", ")} are.` };
    }
    return { action: "map", key: stringAt(payload, "model"), event };
  },
  defaultTemplates: {},
  takesTemplates: true,
};
