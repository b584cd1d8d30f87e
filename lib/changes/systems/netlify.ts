import { createHash } from "node:crypto";
import { jwtVerify } from "jose";
import { stringAt } from "./compare";
import type { ChangeSystem } from "./types";

/**
 * Netlify's deploy notifications: `X-Webhook-Signature` is a JWS (HS256) under the notification's
 * "JWS secret token", issued by `netlify`, whose `sha256` claim is the hex SHA-256 of the body.
 * Netlify signs no time, so no replay window applies; a replay can only ask for the sitemaps' changes again.
 */
export const netlify: ChangeSystem = {
  async verify({ headers, body }, secret) {
    const token = headers["x-webhook-signature"];
    if (!token) return { ok: false, reason: "No X-Webhook-Signature header: set a JWS secret token on the Netlify deploy notification." };
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: "netlify", algorithms: ["HS256"] }));
    } catch {
      return { ok: false, reason: "X-Webhook-Signature is not a JWS from netlify signed with the receiver's secret." };
    }
    const digest = createHash("sha256").update(body).digest("hex");
    if (claims.sha256 !== digest) return { ok: false, reason: "The JWS's sha256 claim is not the body's SHA-256: the body was changed." };
    return { ok: true };
  },
  read(payload) {
    const state = stringAt(payload, "state") ?? null;
    if (state !== "ready") return { action: "ignore", event: state, reason: `Deploy state ${state ?? "(none)"}: only a deploy that succeeded (ready) is warmed.` };
    return { action: "deploy", event: "deploy_succeeded" };
  },
  defaultTemplates: {},
  takesTemplates: false,
};
