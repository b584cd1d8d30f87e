import { describe, expect, it } from "vitest";
import { api, baseUrl, newKey, uniqueEmail } from "./support/api";

// The dashboard's way in: a session cookie plus the dashboard header on /v1, and session-only routes.

const dashboard = { "x-preheat-dashboard": "1" };

describe("the dashboard header without a session", () => {
  it("is refused on /v1 with a sign-in message", async () => {
    const response = await api("GET", "/v1/sites", { headers: dashboard });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: "Your session has ended: sign in again." });
  });

  it("changes nothing for a request with a key: the key decides", async () => {
    const key = await newKey();
    expect((await api("GET", "/v1/sites", { key, headers: dashboard })).status).toBe(200);
    expect((await api("GET", "/v1/sites", { key: "phk_not-a-key", headers: dashboard })).body).toEqual({ error: "Invalid or expired API key." });
  });

  it("is not a way into GET /v1/me, which is about a key", async () => {
    expect((await api("GET", "/v1/me", { headers: dashboard })).body).toEqual({ error: "Invalid or expired API key." });
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

describe("POST /api/dashboard/signup", () => {
  it("creates an account once per address", async () => {
    const email = uniqueEmail("signup");
    const created = await api("POST", "/api/dashboard/signup", { body: { email: email.toUpperCase(), password: "a long enough password" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), email });
    const again = await api("POST", "/api/dashboard/signup", { body: { email, password: "another long password" } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/sign in instead/);
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
      const response = await api("POST", "/api/dashboard/signup", { body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error).toMatch(message);
    }
    expect((await api("POST", "/api/dashboard/signup", { rawBody: "{" })).status).toBe(400);
    // None of those created the account: signing up now works.
    expect((await api("POST", "/api/dashboard/signup", { body: { email, password: "a long enough password" } })).status).toBe(201);
  });
});

describe("sign-ups from one client", () => {
  it("are limited to 20 an hour", async () => {
    // A documentation address (RFC 5737) of this test's own, so other tests' sign-ups do not count.
    const headers = { "x-forwarded-for": "203.0.113.20" };
    for (let i = 0; i < 20; i++) {
      const response = await api("POST", "/api/dashboard/signup", { headers, body: { email: uniqueEmail("many"), password: "a long enough password" } });
      expect(response.status).toBe(201);
    }
    const refused = await api("POST", "/api/dashboard/signup", { headers, body: { email: uniqueEmail("many"), password: "a long enough password" } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many sign-ups from here: try again in \d+ minutes\.$/);
  }, 60_000);
});

describe("password sign-in", () => {
  /** One password sign-in through next-auth's own endpoints, as the sign-in page makes it. */
  async function signIn(email: string, password: string): Promise<string> {
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { csrfToken } = await csrf.json();
    const response = await fetch(`${baseUrl}/api/auth/callback/password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
      redirect: "manual",
    });
    const { url } = await response.json();
    return new URL(url).searchParams.get("error") ?? "ok";
  }

  it("signs in with the right password, and slows down guessing after 10 failures", async () => {
    const email = uniqueEmail("guess");
    await api("POST", "/api/dashboard/signup", { body: { email, password: "the right password" } });
    expect(await signIn(email, "the right password")).toBe("ok");
    for (let i = 0; i < 10; i++) expect(await signIn(email, `wrong ${i}`)).toBe("CredentialsSignin");
    expect(await signIn(email, "the right password")).toMatch(/^Too many failed sign-ins: try again in 15 minutes/);
  });
});
