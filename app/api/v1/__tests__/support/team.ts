import { expect } from "vitest";
import type { Role } from "@/lib/core/roles";
import { api, baseUrl, lastEmailTo, uniqueEmail } from "./api";
import { sessionOf, signUpAndConfirm, uniqueClient } from "./sessions";

// An organization with members, as the teams' pages make it: an owner, and colleagues invited by e-mail.

export const dashboard = { "x-preheat-dashboard": "1" };
export const PASSWORD = "a long enough password";
export const as = (cookie: string) => ({ headers: { ...dashboard, cookie } });

/** A new owner with a session and an admin API key of the organization. */
export async function newOwner() {
  const email = uniqueEmail("owner");
  await signUpAndConfirm(email, PASSWORD, uniqueClient());
  const cookie = await sessionOf(email, PASSWORD);
  const created = await api("POST", "/api/dashboard/keys", {
    ...as(cookie),
    body: { name: "setup", scopes: ["sites:read", "sites:write", "boosts:read", "boosts:write", "runs:read", "webhooks:read", "webhooks:write"] },
  });
  expect(created.status).toBe(201);
  return { email, cookie, key: created.body.key as string };
}

/** The invitation link of the newest e-mail to `email`, pointed at the test server. */
export async function invitationLink(email: string): Promise<{ token: string; url: URL }> {
  const text = await lastEmailTo(email);
  const found = text.match(/https?:\/\/[^\s)"]+\/invitations\/[A-Za-z0-9_-]+/)?.[0];
  if (!found) throw new Error(`no invitation link in:\n${text}`);
  const url = new URL(new URL(found).pathname, baseUrl);
  return { token: url.pathname.split("/").pop()!, url };
}

/** Invites a new address with `role`, accepts with a password, and signs in: the colleague's session. */
export async function colleague(ownerCookie: string, role: Role) {
  const email = uniqueEmail(role);
  const invited = await api("POST", "/api/dashboard/invitations", { ...as(ownerCookie), body: { email, role } });
  expect(invited.status).toBe(201);
  const { token } = await invitationLink(email);
  const accepted = await api("POST", "/api/dashboard/invitations/accept", { headers: dashboard, body: { token, password: PASSWORD } });
  expect(accepted.status).toBe(200);
  return { email, cookie: await sessionOf(email, PASSWORD) };
}
