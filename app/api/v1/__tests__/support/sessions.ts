import { expect } from "vitest";
import { api, baseUrl, lastEmailTo, linkIn, TRUSTED_PROXY } from "./api";

// Signing in and up through next-auth's and the dashboard's own endpoints, as the pages do.

/** One password sign-in through next-auth's own endpoints, as the sign-in page makes it: the error code, or "ok" and the session cookie. */
export async function passwordSignIn(email: string, password: string, from?: string, code?: string): Promise<{ result: string; cookie?: string }> {
  const csrf = await api("GET", "/api/auth/csrf", { from });
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const response = await api("POST", "/api/auth/callback/password", {
    from,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    rawBody: new URLSearchParams({ csrfToken: csrf.body.csrfToken, email, password, ...(code ? { code } : {}), json: "true" }).toString(),
  });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  return { result: new URL(response.body.url).searchParams.get("error") ?? "ok", cookie: session?.split(";")[0] };
}

export async function signIn(email: string, password: string, from?: string): Promise<string> {
  return (await passwordSignIn(email, password, from)).result;
}

/** A signed-in session's cookie, from a real password sign-in over HTTP. */
export async function sessionOf(email: string, password: string): Promise<string> {
  const { result, cookie } = await passwordSignIn(email, password);
  if (result !== "ok" || !cookie) throw new Error(`no session for ${email}: ${result}`);
  return cookie;
}

/** Sign-up takes the address alone: the password is chosen on the confirmation page. */
export async function signUp(email: string, from = TRUSTED_PROXY, client = "198.51.100.1") {
  return api("POST", "/api/dashboard/signup", { from, headers: { "x-forwarded-for": client }, body: { email } });
}

/** What the confirmation page's button sends: the e-mailed token, the organization's name and the password typed there. */
export async function confirm(link: URL, password: string, organizationName: string | null = "Acme Web") {
  return api("POST", "/api/dashboard/signup/confirm", { body: { token: link.searchParams.get("token"), password, ...(organizationName === null ? {} : { organization_name: organizationName }) } });
}

/** Signs up and follows the confirmation link, choosing the password there, as a new owner does. */
/** A client address of its own, so that one test's sign-ups never spend another's per-client allowance. */
export function uniqueClient(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

export async function signUpAndConfirm(email: string, password = "a long enough password", client = "198.51.100.1") {
  expect((await signUp(email, TRUSTED_PROXY, client)).status).toBe(201);
  const confirmed = await confirm(linkIn(await lastEmailTo(email)), password);
  expect(confirmed.status).toBe(201);
}

/** Asks for a sign-in link as the sign-in page does, signed out: anyone may ask for any address's. */
export async function askForSignInLink(email: string, from?: string): Promise<void> {
  const csrf = await api("GET", "/api/auth/csrf", { from });
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  await api("POST", "/api/auth/signin/email", {
    from,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    rawBody: new URLSearchParams({ csrfToken: csrf.body.csrfToken, email, json: "true" }).toString(),
  });
}

/** The e-mailed sign-in link's token of the newest e-mail to `email` (the operator CLI reads it). */
export async function signInLinkOf(email: string): Promise<URL> {
  const link = new URL((await lastEmailTo(email)).match(/https?:\/\/\S+\/api\/auth\/callback\/email\S+/)![0]);
  return new URL(link.pathname + link.search, baseUrl);
}

/** Asks for a sign-in link as the sign-in page does and follows the e-mailed link: the callback's answer (a session cookie, or a redirect naming the error). */
export async function followNewSignInLink(email: string): Promise<Response> {
  await askForSignInLink(email);
  return fetch(await signInLinkOf(email), { redirect: "manual" });
}
