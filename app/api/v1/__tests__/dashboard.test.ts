import { describe, expect, it } from "vitest";
import { api, lastEmailTo, linkIn, newKey, TRUSTED_PROXY, uniqueEmail } from "./support/api";

// The dashboard's way in: a session cookie plus the dashboard header on /v1, and session-only routes.

const dashboard = { "x-preheat-dashboard": "1" };

describe("the dashboard header without a session", () => {
  it("is refused on /v1 with a sign-in message", async () => {
    const response = await api("GET", "/v1/sites", { headers: dashboard });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: "Your session has ended: sign in again.", code: "session_expired" });
  });

  it("changes nothing for a request with a key: the key decides", async () => {
    const key = await newKey();
    expect((await api("GET", "/v1/sites", { key, headers: dashboard })).status).toBe(200);
    expect((await api("GET", "/v1/sites", { key: "phk_not-a-key", headers: dashboard })).body).toEqual({ error: "Invalid or expired API key.", code: "invalid_api_key" });
  });

  it("is not a way into GET /v1/me, which is about a key", async () => {
    expect((await api("GET", "/v1/me", { headers: dashboard })).body).toEqual({ error: "Invalid or expired API key.", code: "invalid_api_key" });
  });
});

describe("the dashboard's own routes", () => {
  it("never take an API key: a key cannot mint keys", async () => {
    const key = await newKey();
    const response = await api("POST", "/api/dashboard/keys", { key, body: { name: "escalate", scopes: ["sites:write"] } });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/dashboard/);
  });

  it("need a session", async () => {
    for (const path of ["/api/dashboard/keys", "/api/dashboard/outbox", "/api/dashboard/outbox/1"]) {
      const response = await api("GET", path, { headers: dashboard });
      expect(response.status, path).toBe(401);
    }
    expect((await api("DELETE", "/api/dashboard/keys/1", { headers: dashboard })).status).toBe(401);
  });
});

/** One password sign-in through next-auth's own endpoints, as the sign-in page makes it: "ok" or the error code. */
async function signIn(email: string, password: string, from?: string): Promise<string> {
  const csrf = await api("GET", "/api/auth/csrf", { from });
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const response = await api("POST", "/api/auth/callback/password", {
    from,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    rawBody: new URLSearchParams({ csrfToken: csrf.body.csrfToken, email, password, json: "true" }).toString(),
  });
  return new URL(response.body.url).searchParams.get("error") ?? "ok";
}

/** Follows an e-mailed sign-in link; answers the session cookie it sets. */
async function followSignInLink(link: URL): Promise<string> {
  const response = await fetch(link, { redirect: "manual" });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`no session from ${link}: ${response.status} ${response.headers.get("location")}`);
  return session.split(";")[0]!;
}

async function signUp(email: string, password = "a long enough password", from = TRUSTED_PROXY, client = "198.51.100.1") {
  return api("POST", "/api/dashboard/signup", { from, headers: { "x-forwarded-for": client }, body: { email, password } });
}

/** Signs up and follows the confirmation link, as a new owner does. */
async function signUpAndConfirm(email: string, password = "a long enough password") {
  expect((await signUp(email, password)).status).toBe(201);
  const token = linkIn(await lastEmailTo(email)).searchParams.get("token");
  const confirmed = await api("POST", "/api/dashboard/signup/confirm", { body: { token } });
  expect(confirmed.status).toBe(201);
}

describe("POST /api/dashboard/signup", () => {
  it("creates the account only when the e-mailed link is followed, once", async () => {
    const email = uniqueEmail("signup");
    const created = await signUp(email.toUpperCase());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ email, confirmation_sent: true, message: `We sent a link to ${email}: follow it to finish.` });
    expect(await signIn(email, "a long enough password")).toBe("CredentialsSignin");
    const text = await lastEmailTo(email);
    expect(text).toMatch(/Subject: Confirm your address to create your Preheat account/);
    const token = linkIn(text).searchParams.get("token");
    const confirmed = await api("POST", "/api/dashboard/signup/confirm", { body: { token } });
    expect(confirmed).toMatchObject({ status: 201, body: { email, created: true } });
    expect(await signIn(email, "a long enough password")).toBe("ok");
    const again = await api("POST", "/api/dashboard/signup/confirm", { body: { token } });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/not valid any more/);
  });

  it("refuses bad input with a sentence and writes nothing", async () => {
    const email = uniqueEmail("bad");
    const cases: [unknown, number, RegExp][] = [
      [{ email: "not-an-address", password: "a long enough password" }, 422, /valid e-mail/],
      [{ email, password: "short" }, 422, /at least 10 characters/],
      [{ email, password: "x".repeat(73) }, 422, /at most 72 bytes/],
      [{ email }, 422, /password/],
      [[], 422, /JSON object/],
    ];
    for (const [body, status, message] of cases) {
      const response = await api("POST", "/api/dashboard/signup", { from: TRUSTED_PROXY, headers: { "x-forwarded-for": "198.51.100.2" }, body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error).toMatch(message);
    }
    expect((await api("POST", "/api/dashboard/signup", { from: TRUSTED_PROXY, headers: { "x-forwarded-for": "198.51.100.2" }, rawBody: "{" })).status).toBe(400);
    expect(await lastEmailTo(email)).toMatch(/^No e-mail to/);
  });

  it("takes JSON only: a cross-site form cannot sign anybody up", async () => {
    const email = uniqueEmail("form");
    for (const [type, body] of [
      ["text/plain", JSON.stringify({ email, password: "a long enough password" })],
      ["application/x-www-form-urlencoded", new URLSearchParams({ email, password: "a long enough password" }).toString()],
      ["multipart/form-data; boundary=x", `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\n${email}\r\n--x--\r\n`],
    ]) {
      const response = await api("POST", "/api/dashboard/signup", { headers: { "content-type": type! }, rawBody: body });
      expect(response.status, type).toBe(415);
    }
    expect(await lastEmailTo(email)).toMatch(/^No e-mail to/);
  });
});

describe("sign-up with an address that has a user", () => {
  it("changes nothing, answers as for a new address, and e-mails its owner a sign-in link instead", async () => {
    const owner = uniqueEmail("owner");
    const key = await newKey("all", owner); // created by the CLI: no password
    const site = await api("POST", "/v1/sites", { key, body: { domain: `owned-${Date.now()}.test` } });
    const attempt = await signUp(owner, "the attacker's password");
    const fresh = await signUp(uniqueEmail("fresh"), "the attacker's password");
    expect(attempt.status).toBe(fresh.status);
    expect(Object.keys(attempt.body)).toEqual(Object.keys(fresh.body));
    expect(attempt.body).toEqual({ email: owner, confirmation_sent: true, message: `We sent a link to ${owner}: follow it to finish.` });
    // The attacker's password never signs in, so no session and no key can be had.
    expect(await signIn(owner, "the attacker's password")).toBe("CredentialsSignin");
    expect((await api("GET", "/v1/me", { key })).status).toBe(200);
    const note = await lastEmailTo(owner);
    expect(note).toMatch(/Subject: You already have a Preheat account/);
    expect(note).toMatch(/Nothing was changed/);
    // The owner's way in: the link signs in, and the owner's sites are there.
    const cookie = await followSignInLink(linkIn(note));
    const sites = await api("GET", "/v1/sites", { headers: { ...dashboard, cookie } });
    expect(sites.body.data.map((s: { id: number }) => s.id)).toEqual([site.body.id]);
  });

  it("a user without a password sets one only from a signed-in session; changing it needs the current one", async () => {
    const email = uniqueEmail("nopass");
    await newKey("all", email);
    expect((await api("PUT", "/api/dashboard/password", { headers: dashboard, body: { new_password: "a brand new password" } })).status).toBe(401);
    expect((await signUp(email, "a long enough password")).status).toBe(201);
    const cookie = await followSignInLink(linkIn(await lastEmailTo(email)));
    const session = { ...dashboard, cookie };
    expect((await api("GET", "/api/dashboard/password", { headers: session })).body).toEqual({ has_password: false });
    expect((await api("PUT", "/api/dashboard/password", { headers: session, body: { new_password: "a brand new password" } })).status).toBe(204);
    expect(await signIn(email, "a brand new password")).toBe("ok");
    const withoutCurrent = await api("PUT", "/api/dashboard/password", { headers: session, body: { new_password: "yet another password" } });
    expect(withoutCurrent.status).toBe(422);
    expect(withoutCurrent.body.details).toEqual([{ field: "current_password", message: "Required to change the password." }]);
    expect((await api("PUT", "/api/dashboard/password", { headers: session, body: { current_password: "wrong password!", new_password: "yet another password" } })).status).toBe(422);
    expect((await api("PUT", "/api/dashboard/password", { headers: session, body: { current_password: "a brand new password", new_password: "yet another password" } })).status).toBe(204);
    expect(await signIn(email, "yet another password")).toBe("ok");
    // Without the dashboard header, a cookie alone changes nothing (CSRF).
    expect((await api("PUT", "/api/dashboard/password", { headers: { cookie }, body: { current_password: "yet another password", new_password: "forged password!!" } })).status).toBe(403);
  });
});

describe("sign-ups from one client", () => {
  it("are limited to 20 an hour, per client as the trusted proxy reports it", async () => {
    // A documentation address (RFC 5737) of this test's own, so other tests' sign-ups do not count.
    for (let i = 0; i < 20; i++) expect((await signUp(uniqueEmail("many"), undefined, TRUSTED_PROXY, "203.0.113.20")).status).toBe(201);
    const refused = await signUp(uniqueEmail("many"), undefined, TRUSTED_PROXY, "203.0.113.20");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many sign-ups from here: try again in \d+ minutes\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signUp(uniqueEmail("many"), undefined, TRUSTED_PROXY, "203.0.113.21")).status).toBe(201);
  }, 90_000);
});

describe("password sign-in", () => {
  it("signs in with the right password, and slows down guessing after 10 failures", async () => {
    const email = uniqueEmail("guess");
    await signUpAndConfirm(email, "the right password");
    expect(await signIn(email, "the right password")).toBe("ok");
    for (let i = 0; i < 10; i++) expect(await signIn(email, `wrong ${i}`)).toBe("CredentialsSignin");
    expect(await signIn(email, "the right password")).toMatch(/^Too many failed sign-ins: try again in 15 minutes/);
  });

  it("counts a client by the connection, not by an X-Forwarded-For it sends itself", async () => {
    // 127.0.0.3 is no trusted proxy: rotating the header does not give it fresh buckets.
    const direct = "127.0.0.3";
    for (let i = 0; i < 50; i++) {
      const response = await api("POST", "/api/auth/callback/password", { from: direct, headers: { "x-forwarded-for": `192.0.2.${i}` } });
      expect(response.status).toBeLessThan(500);
      expect(await signIn(uniqueEmail("rotate"), `wrong ${i}`, direct)).toBe("CredentialsSignin");
    }
    expect(await signIn(uniqueEmail("rotate"), "wrong again", direct)).toMatch(/^Too many failed sign-ins/);
    // Behind the trusted proxy, another client is another bucket.
    expect(await signIn(uniqueEmail("rotate"), "wrong again", TRUSTED_PROXY)).toBe("CredentialsSignin");
  }, 120_000);
});
