import { describe, expect, it } from "vitest";
import { api, baseUrl, lastEmailTo, linkIn, newKey, TRUSTED_PROXY, uniqueEmail } from "./support/api";
import { confirm, sessionOf, signIn, signUp, signUpAndConfirm, uniqueClient } from "./support/sessions";

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

/** Follows an e-mailed sign-in link; answers the session cookie it sets. */
async function followSignInLink(link: URL): Promise<string> {
  const response = await fetch(link, { redirect: "manual" });
  const session = response.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`no session from ${link}: ${response.status} ${response.headers.get("location")}`);
  return session.split(";")[0]!;
}

/** Asks for a sign-in link as the sign-in page does (next-auth's e-mail provider), from `client` behind the trusted proxy. */
async function requestSignInLink(email: string, client: string) {
  const from = { from: TRUSTED_PROXY, headers: { "x-forwarded-for": client } };
  const csrf = await api("GET", "/api/auth/csrf", from);
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return api("POST", "/api/auth/signin/email", {
    ...from,
    headers: { ...from.headers, "content-type": "application/x-www-form-urlencoded", cookie },
    rawBody: new URLSearchParams({ csrfToken: csrf.body.csrfToken, email, callbackUrl: "/sites", json: "true" }).toString(),
  });
}

describe("POST /api/dashboard/signup", () => {
  it("creates the account only when the e-mailed link is followed, with the password chosen on its page, once", async () => {
    const email = uniqueEmail("signup");
    const created = await signUp(email.toUpperCase());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ email, confirmation_sent: true, message: `We sent a link to ${email}: follow it to finish.` });
    const text = await lastEmailTo(email);
    expect(text).toMatch(/Subject: Confirm your address to create your Preheat account/);
    const link = linkIn(text);
    // The page shows the address and asks for the password; opening it spends nothing.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    // A password the rules refuse spends nothing either: the link still works.
    for (const [password, message] of [
      ["short", /at least 10 characters/],
      ["x".repeat(73), /at most 72 bytes/],
      ["", /Choose a password/],
    ] as const) {
      const refused = await confirm(link, password);
      expect(refused.status, password).toBe(422);
      expect(refused.body.error).toMatch(message);
    }
    expect(await signIn(email, "a long enough password")).toBe("CredentialsSignin");
    expect(await confirm(link, "a long enough password")).toMatchObject({ status: 201, body: { email, created: true } });
    expect(await signIn(email, "a long enough password")).toBe("ok");
    const again = await confirm(link, "a long enough password");
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/not valid any more/);
    expect(await (await fetch(link)).text()).toMatch(/not valid any more/);
  });

  it("refuses bad input with a sentence and writes nothing; a password is refused, not ignored", async () => {
    const email = uniqueEmail("bad");
    const cases: [unknown, number, RegExp][] = [
      [{ email: "not-an-address" }, 422, /valid e-mail/],
      [{ email, password: "a long enough password" }, 422, /takes no password/],
      [{}, 422, /email/],
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
      ["text/plain", JSON.stringify({ email })],
      ["application/x-www-form-urlencoded", new URLSearchParams({ email }).toString()],
      ["multipart/form-data; boundary=x", `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\n${email}\r\n--x--\r\n`],
    ]) {
      const response = await api("POST", "/api/dashboard/signup", { headers: { "content-type": type! }, rawBody: body });
      expect(response.status, type).toBe(415);
    }
    expect(await lastEmailTo(email)).toMatch(/^No e-mail to/);
  });
});

describe("pre-claiming an address", () => {
  it("a stranger's sign-up never yields a password that signs in after the owner confirms", async () => {
    const victim = uniqueEmail("victim");
    // The attack as it used to work: sign up somebody else's address with a password of one's own.
    const withPassword = await api("POST", "/api/dashboard/signup", {
      from: TRUSTED_PROXY,
      headers: { "x-forwarded-for": "198.51.100.40" },
      body: { email: victim, password: "the attacker's password" },
    });
    expect(withPassword.status).toBe(422);
    expect(await lastEmailTo(victim)).toMatch(/^No e-mail to/);
    // Without one, the stranger only makes Preheat e-mail the owner, who chooses the password on the link's page.
    expect((await signUp(victim, TRUSTED_PROXY, "198.51.100.40")).status).toBe(201);
    expect(await confirm(linkIn(await lastEmailTo(victim)), "the owner's own password")).toMatchObject({ status: 201, body: { created: true } });
    expect(await signIn(victim, "the attacker's password")).toBe("CredentialsSignin");
    expect(await signIn(victim, "the owner's own password")).toBe("ok");
  });

  it("a new sign-up for the address ends the earlier pending links", async () => {
    const email = uniqueEmail("twice");
    expect((await signUp(email, TRUSTED_PROXY, "198.51.100.41")).status).toBe(201);
    const first = linkIn(await lastEmailTo(email));
    expect((await signUp(email, TRUSTED_PROXY, "198.51.100.41")).status).toBe(201);
    const second = linkIn(await lastEmailTo(email));
    expect(second.searchParams.get("token")).not.toBe(first.searchParams.get("token"));
    const stale = await confirm(first, "a long enough password");
    expect(stale.status).toBe(422);
    expect(stale.body.error).toMatch(/not valid any more/);
    expect(await confirm(second, "a long enough password")).toMatchObject({ status: 201, body: { email, created: true } });
  });
});

describe("sign-up with an address that has a user", () => {
  it("changes nothing, answers as for a new address, and e-mails its owner a sign-in link instead", async () => {
    const owner = uniqueEmail("owner");
    const key = await newKey("all", owner); // created by the CLI: no password
    const site = await api("POST", "/v1/sites", { key, body: { domain: `owned-${Date.now()}.test` } });
    const attempt = await signUp(owner);
    const fresh = await signUp(uniqueEmail("fresh"));
    expect(attempt.status).toBe(fresh.status);
    expect(Object.keys(attempt.body)).toEqual(Object.keys(fresh.body));
    expect(attempt.body).toEqual({ email: owner, confirmation_sent: true, message: `We sent a link to ${owner}: follow it to finish.` });
    // The owner has no password, and sign-up gave none: no session and no key can be had.
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
    expect((await signUp(email)).status).toBe(201);
    const cookie = await followSignInLink(linkIn(await lastEmailTo(email)));
    expect((await api("GET", "/api/dashboard/password", { headers: { ...dashboard, cookie } })).body).toEqual({ has_password: false });
    /** Saves a password; the session that saves it goes on. */
    const save = (body: object) => api("PUT", "/api/dashboard/password", { headers: { ...dashboard, cookie }, body });
    expect((await save({ new_password: "a brand new password" })).status).toBe(204);
    expect(await signIn(email, "a brand new password")).toBe("ok");
    const withoutCurrent = await save({ new_password: "yet another password" });
    expect(withoutCurrent.status).toBe(422);
    expect(withoutCurrent.body.details).toEqual([{ field: "current_password", message: "Required to change the password." }]);
    expect((await save({ current_password: "wrong password!", new_password: "yet another password" })).status).toBe(422);
    expect((await save({ current_password: "a brand new password", new_password: "yet another password" })).status).toBe(204);
    expect(await signIn(email, "yet another password")).toBe("ok");
    // Without the dashboard header, a cookie alone changes nothing (CSRF).
    expect((await api("PUT", "/api/dashboard/password", { headers: { cookie }, body: { current_password: "yet another password", new_password: "forged password!!" } })).status).toBe(403);
  });
});

describe("sessions and password changes", () => {
  const expired = { error: "Your session has ended: sign in again.", code: "session_expired" };

  it("a session opened before a password change is refused after it; the session that changed it goes on", async () => {
    const email = uniqueEmail("stolen");
    await signUpAndConfirm(email, "the first password", "198.51.100.42");
    const thief = await sessionOf(email, "the first password");
    const owner = await sessionOf(email, "the first password");
    expect((await api("GET", "/v1/sites", { headers: { ...dashboard, cookie: thief } })).status).toBe(200);
    const changed = await api("PUT", "/api/dashboard/password", { headers: { ...dashboard, cookie: owner }, body: { current_password: "the first password", new_password: "the second password" } });
    expect(changed.status).toBe(204);
    // The session opened before the change is signed out everywhere it is read: /v1, the dashboard's routes, its pages.
    expect(await api("GET", "/v1/sites", { headers: { ...dashboard, cookie: thief } })).toMatchObject({ status: 401, body: expired });
    expect(await api("GET", "/api/dashboard/keys", { headers: { ...dashboard, cookie: thief } })).toMatchObject({ status: 401, body: expired });
    const page = await fetch(`${baseUrl}/sites`, { headers: { cookie: thief }, redirect: "manual" });
    expect(page.headers.get("location") ?? "").toMatch(/\/signin/);
    // The session that changed it goes on with the cookie it has.
    expect((await api("GET", "/v1/sites", { headers: { ...dashboard, cookie: owner } })).status).toBe(200);
    expect(await signIn(email, "the first password")).toBe("CredentialsSignin");
    expect((await api("GET", "/v1/sites", { headers: { ...dashboard, cookie: await sessionOf(email, "the second password") } })).status).toBe(200);
  });

  it("sign out everywhere ends every session, the one asking too", async () => {
    const email = uniqueEmail("everywhere");
    await signUpAndConfirm(email, "a long enough password", "198.51.100.42");
    const here = await sessionOf(email, "a long enough password");
    const there = await sessionOf(email, "a long enough password");
    expect((await api("DELETE", "/api/dashboard/sessions", { headers: { cookie: here } })).status).toBe(403);
    expect((await api("DELETE", "/api/dashboard/sessions", { headers: { ...dashboard, cookie: here } })).status).toBe(204);
    for (const cookie of [here, there]) expect(await api("GET", "/v1/sites", { headers: { ...dashboard, cookie } })).toMatchObject({ status: 401, body: expired });
    expect((await api("DELETE", "/api/dashboard/sessions", { headers: { ...dashboard, cookie: here } })).status).toBe(401);
    // Signing in again works as before.
    expect((await api("GET", "/v1/sites", { headers: { ...dashboard, cookie: await sessionOf(email, "a long enough password") } })).status).toBe(200);
  });
});

describe("e-mails a signed-out visitor can have sent", () => {
  it("the 6th sign-in link request in an hour for one address sends nothing and answers the same", async () => {
    const email = uniqueEmail("bombed");
    const answers: unknown[] = [];
    let lastLink = "";
    for (let i = 0; i < 5; i++) {
      // From five clients: the cap is the address's, whoever asks.
      const response = await requestSignInLink(email, `198.51.100.${50 + i}`);
      answers.push({ status: response.status, body: response.body });
      const link = linkIn(await lastEmailTo(email)).toString();
      expect(link).not.toBe(lastLink);
      lastLink = link;
    }
    const sixth = await requestSignInLink(email, "198.51.100.55");
    expect({ status: sixth.status, body: sixth.body }).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ status: 200, body: { url: expect.stringMatching(/\/api\/auth\/verify-request/) } });
    expect(linkIn(await lastEmailTo(email)).toString()).toBe(lastLink);
    // A sign-up of the address draws on the same cap: the same answer as ever, and no e-mail.
    const signUpAnswer = await signUp(email, TRUSTED_PROXY, "198.51.100.56");
    expect(signUpAnswer).toMatchObject({ status: 201, body: { email, confirmation_sent: true } });
    expect(linkIn(await lastEmailTo(email)).toString()).toBe(lastLink);
  }, 180_000);

  it("the note to an owner whose address is signed up again is capped alike", async () => {
    const owner = uniqueEmail("noted");
    await newKey("all", owner);
    for (let i = 0; i < 5; i++) expect((await signUp(owner, TRUSTED_PROXY, `198.51.100.${60 + i}`)).status).toBe(201);
    const notes = await lastEmailTo(owner);
    expect(notes).toMatch(/Subject: You already have a Preheat account/);
    const sixth = await signUp(owner, TRUSTED_PROXY, "198.51.100.65");
    const fresh = await signUp(uniqueEmail("fresh"), TRUSTED_PROXY, "198.51.100.65");
    expect(sixth.status).toBe(fresh.status);
    expect(Object.keys(sixth.body)).toEqual(Object.keys(fresh.body));
    expect(await lastEmailTo(owner)).toBe(notes);
  }, 180_000);

  it("one client has 20 e-mails sent an hour; past that, nothing is sent and the answers do not change", async () => {
    const client = "203.0.113.30";
    let first: unknown;
    for (let i = 0; i < 20; i++) {
      const response = await requestSignInLink(uniqueEmail("spray"), client);
      first ??= { status: response.status, body: response.body };
    }
    const target = uniqueEmail("spray");
    const refused = await requestSignInLink(target, client);
    expect({ status: refused.status, body: refused.body }).toEqual(first);
    expect((await signUp(uniqueEmail("spray"), TRUSTED_PROXY, client)).status).toBe(201);
    expect(await lastEmailTo(target)).toMatch(/^No e-mail to/);
    // Another client is another count.
    expect((await requestSignInLink(target, "203.0.113.31")).status).toBe(200);
    expect(linkIn(await lastEmailTo(target)).pathname).toBe("/api/auth/callback/email");
  }, 90_000);
});

describe("sign-ups from one client", () => {
  it("are limited to 20 an hour, per client as the trusted proxy reports it", async () => {
    // A documentation address (RFC 5737) of this test's own, so other tests' sign-ups do not count.
    for (let i = 0; i < 20; i++) expect((await signUp(uniqueEmail("many"), TRUSTED_PROXY, "203.0.113.20")).status).toBe(201);
    const refused = await signUp(uniqueEmail("many"), TRUSTED_PROXY, "203.0.113.20");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many sign-ups from here: try again in \d+ minutes\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signUp(uniqueEmail("many"), TRUSTED_PROXY, "203.0.113.21")).status).toBe(201);
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

describe("GET /api/dashboard/first-steps", () => {
  it("says which first steps the organization took, and which site and boost the next ones are about", async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(email, "a long enough password", uniqueClient());
    const headers = { ...dashboard, cookie: await sessionOf(email, "a long enough password") };
    const none = await api("GET", "/api/dashboard/first-steps", { headers });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      done: { site_added: false, ownership_proved: false, sitemap_added: false, boost_created: false, first_run: false, colleague_invited: false },
      site_id: null,
      boost_id: null,
    });

    const site = await api("POST", "/v1/sites", { headers, body: { domain: `steps-${Date.now().toString(36)}.test` } });
    expect((await api("POST", "/api/dashboard/invitations", { headers, body: { email: uniqueEmail(), role: "viewer" } })).status).toBe(201);
    const some = await api("GET", "/api/dashboard/first-steps", { headers });
    expect(some.body).toEqual({
      done: { site_added: true, ownership_proved: false, sitemap_added: false, boost_created: false, first_run: false, colleague_invited: true },
      site_id: site.body.id,
      boost_id: null,
    });
    // Another organization's steps are its own.
    const other = uniqueEmail();
    await signUpAndConfirm(other, "a long enough password", uniqueClient());
    const theirs = await api("GET", "/api/dashboard/first-steps", { headers: { ...dashboard, cookie: await sessionOf(other, "a long enough password") } });
    expect(theirs.body.done.site_added).toBe(false);
    expect((await api("GET", "/api/dashboard/first-steps", { headers: dashboard })).status).toBe(401);
  });
});
