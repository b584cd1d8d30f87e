import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { api, baseUrl, lastEmailTo, newKey, TRUSTED_PROXY, uniqueEmail } from "./support/api";
import { followNewSignInLink, passwordSignIn, sessionOf, signUpAndConfirm, uniqueClient } from "./support/sessions";

// Two-factor sign-in, an organization that requires it, a change of address and the deletion of one's user.

const dashboard = { "x-preheat-dashboard": "1" };
const PASSWORD = "a long enough password";
const as = (cookie: string) => ({ headers: { ...dashboard, cookie } });

async function newUser(label = "user") {
  const email = uniqueEmail(label);
  await signUpAndConfirm(email, PASSWORD, uniqueClient());
  return { email, cookie: await sessionOf(email, PASSWORD) };
}

/** The code an authenticator app shows for the secret, `stepOffset` periods from now. */
const codeOf = (secret: string, stepOffset = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepOffset * 30_000 });

/** Turns two-factor sign-in on for the session's user: its secret and recovery codes. */
async function enableTwoFactor(cookie: string) {
  const setup = await api("POST", "/api/dashboard/two-factor/setup", as(cookie));
  expect(setup.status).toBe(200);
  expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/Preheat:/);
  expect(setup.body.qr_svg).toMatch(/^<svg/);
  expect((await api("POST", "/api/dashboard/two-factor/enable", { ...as(cookie), body: { code: "000000" } })).body.details).toEqual([{ field: "code", message: "Not right." }]);
  const enabled = await api("POST", "/api/dashboard/two-factor/enable", { ...as(cookie), body: { code: codeOf(setup.body.secret) } });
  expect(enabled.status).toBe(200);
  expect(enabled.body.recovery_codes).toHaveLength(10);
  return { secret: setup.body.secret as string, recoveryCodes: enabled.body.recovery_codes as string[] };
}

describe("two-factor sign-in", () => {
  it("needs a password first: sign-in links stop working once it is on", async () => {
    const email = uniqueEmail("nopassword");
    expect(await newKey("sites:read", email)).toMatch(/^phk_/);
    const followed = await followNewSignInLink(email);
    const session = followed.headers
      .getSetCookie()
      .find((c) => c.startsWith("next-auth.session-token="))!
      .split(";")[0]!;
    expect(await api("POST", "/api/dashboard/two-factor/setup", as(session))).toMatchObject({ status: 409, body: { error: expect.stringMatching(/Set a password first/) } });
  });

  it("asks for a code after the password; each code and recovery code works once", async () => {
    const user = await newUser("totp");
    const { secret, recoveryCodes } = await enableTwoFactor(user.cookie);
    expect((await api("GET", "/api/dashboard/two-factor", as(user.cookie))).body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect((await passwordSignIn(user.email, PASSWORD)).result).toBe("TwoFactorRequired");
    expect((await passwordSignIn(user.email, PASSWORD, undefined, "123456")).result).toBe("TwoFactorInvalid");
    // The code of the enabling step was used: the next one signs in, once.
    const next = codeOf(secret, 1);
    const signedIn = await passwordSignIn(user.email, PASSWORD, undefined, next);
    expect(signedIn.result).toBe("ok");
    expect((await api("GET", "/v1/sites", as(signedIn.cookie!))).status).toBe(200);
    expect((await passwordSignIn(user.email, PASSWORD, undefined, next)).result).toBe("TwoFactorInvalid");
    expect((await passwordSignIn(user.email, PASSWORD, undefined, recoveryCodes[0])).result).toBe("ok");
    expect((await passwordSignIn(user.email, PASSWORD, undefined, recoveryCodes[0])).result).toBe("TwoFactorInvalid");
    expect((await api("GET", "/api/dashboard/two-factor", as(user.cookie))).body.recovery_codes_left).toBe(9);
    // A wrong password with a right code is still a wrong password.
    expect((await passwordSignIn(user.email, "not the password", undefined, recoveryCodes[1])).result).toBe("CredentialsSignin");
  });

  it("a sign-in link does not pass it", async () => {
    const user = await newUser("totplink");
    await enableTwoFactor(user.cookie);
    const followed = await followNewSignInLink(user.email);
    expect(followed.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token="))).toBe(false);
    expect(followed.headers.get("location")).toMatch(/error=TwoFactorRequired/);
  });

  it("an organization that requires it opens nothing but the member's own account until it is on", async () => {
    const owner = await newUser("strict");
    expect((await api("PATCH", "/api/dashboard/organization", { ...as(owner.cookie), body: { require_two_factor: true } })).status).toBe(409);
    const { secret } = await enableTwoFactor(owner.cookie);
    const site = await api("POST", "/v1/sites", { ...as(owner.cookie), body: { domain: `strict-${Date.now()}.test` } });
    const member = uniqueEmail("lax");
    await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: member, role: "admin" } });
    const token = (await lastEmailTo(member)).match(/\/invitations\/([A-Za-z0-9_-]+)/)![1];
    await api("POST", "/api/dashboard/invitations/accept", { headers: dashboard, body: { token, password: PASSWORD } });
    const memberCookie = await sessionOf(member, PASSWORD);
    expect((await api("PATCH", "/api/dashboard/organization", { ...as(owner.cookie), body: { require_two_factor: true } })).body.require_two_factor).toBe(true);
    expect(await api("GET", "/v1/sites", as(memberCookie))).toMatchObject({ status: 403, body: { code: "two_factor_required" } });
    expect((await api("GET", "/api/dashboard/keys", as(memberCookie))).body.code).toBe("two_factor_required");
    // Its pages show nothing of the organization either.
    const page = await fetch(`${baseUrl}/sites/${site.body.id}`, { headers: { cookie: memberCookie }, redirect: "manual" });
    expect(await page.text()).not.toContain(site.body.domain);
    expect((await api("GET", "/api/dashboard/two-factor", as(memberCookie))).body).toMatchObject({ enabled: false, required_by: expect.any(String) });
    await enableTwoFactor(memberCookie);
    expect((await api("GET", "/v1/sites", as(memberCookie))).status).toBe(200);
    // It stays on while the organization requires it.
    expect((await api("POST", "/api/dashboard/two-factor/disable", { ...as(owner.cookie), body: { code: codeOf(secret, 1) } })).status).toBe(409);
  });
});

describe("two-factor codes on every route that takes one", () => {
  it("share the sign-in limit per user: ten wrong codes lock recovery codes, turning it off and signing in, and the user is told", async () => {
    const user = await newUser("stolen");
    const { secret } = await enableTwoFactor(user.cookie);
    // A stolen session searching the code space, from an address of its own (through the trusted proxy).
    const thief = { ...as(user.cookie), from: TRUSTED_PROXY, headers: { ...as(user.cookie).headers, "x-forwarded-for": uniqueClient() } };
    for (let i = 0; i < 10; i++) {
      const wrong = await api("POST", "/api/dashboard/two-factor/recovery-codes", { ...thief, body: { code: String(100000 + i) } });
      expect(wrong.status, `attempt ${i + 1}`).toBe(422);
    }
    const locked = await api("POST", "/api/dashboard/two-factor/recovery-codes", { ...thief, body: { code: codeOf(secret) } });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.body).toMatchObject({ code: "rate_limited", error: expect.stringMatching(/Too many wrong codes/) });
    expect((await api("POST", "/api/dashboard/two-factor/disable", { ...thief, body: { password: PASSWORD } })).status).toBe(429);
    expect((await api("GET", "/api/dashboard/two-factor", as(user.cookie))).body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // The limit is the user's, wherever the next attempt comes from: signing in waits too.
    expect((await passwordSignIn(user.email, PASSWORD, undefined, codeOf(secret, 1))).result).toMatch(/Too many failed sign-ins/);
    const notice = await lastEmailTo(user.email);
    expect(notice).toMatch(/Subject: Too many wrong two-factor codes on Preheat/);
    expect(notice).toMatch(/10 wrong codes were entered for your user \(new recovery codes\)/);
  });

  it("turning it off by a wrong code or password is counted alike", async () => {
    const user = await newUser("disabling");
    await enableTwoFactor(user.cookie);
    const from = { ...as(user.cookie), from: TRUSTED_PROXY, headers: { ...as(user.cookie).headers, "x-forwarded-for": uniqueClient() } };
    for (let i = 0; i < 10; i++) expect((await api("POST", "/api/dashboard/two-factor/disable", { ...from, body: { password: `wrong password ${i}` } })).status).toBe(422);
    expect((await api("POST", "/api/dashboard/two-factor/disable", { ...from, body: { password: PASSWORD } })).status).toBe(429);
  });
});

describe("one's own user", () => {
  it("changes its address once the new one confirms; the old one is told both times", async () => {
    const user = await newUser("moving");
    const newEmail = uniqueEmail("moved");
    expect((await api("POST", "/api/dashboard/email", { ...as(user.cookie), body: { new_email: newEmail, password: "wrong password!" } })).status).toBe(422);
    expect((await api("POST", "/api/dashboard/email", { ...as(user.cookie), body: { new_email: newEmail, password: PASSWORD } })).status).toBe(202);
    expect(await lastEmailTo(user.email)).toMatch(/Subject: A change of your Preheat address was asked for/);
    const token = (await lastEmailTo(newEmail)).match(/\/email-change\/([A-Za-z0-9_-]+)/)![1];
    // Nothing changed yet.
    expect((await passwordSignIn(user.email, PASSWORD)).result).toBe("ok");
    expect((await api("POST", "/api/dashboard/email/confirm", { headers: dashboard, body: { token } })).body).toEqual({ email: newEmail });
    expect(await lastEmailTo(user.email)).toMatch(/Subject: Your Preheat address was changed/);
    expect((await passwordSignIn(user.email, PASSWORD)).result).toBe("CredentialsSignin");
    expect((await passwordSignIn(newEmail, PASSWORD)).result).toBe("ok");
    expect((await api("POST", "/api/dashboard/email/confirm", { headers: dashboard, body: { token } })).status).toBe(422);
  });

  it("deletes itself with the organization nobody else is in; the last owner of a team must hand it over first", async () => {
    const alone = await newUser("alone");
    expect((await api("DELETE", "/api/dashboard/user", { ...as(alone.cookie), body: { confirm_email: "someone@else.example", password: PASSWORD } })).status).toBe(422);
    expect((await api("DELETE", "/api/dashboard/user", { ...as(alone.cookie), body: { confirm_email: alone.email, password: PASSWORD } })).status).toBe(204);
    expect((await api("GET", "/v1/sites", as(alone.cookie))).status).toBe(401);
    expect((await passwordSignIn(alone.email, PASSWORD)).result).toBe("CredentialsSignin");

    const owner = await newUser("teamowner");
    const member = uniqueEmail("stays");
    await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: member, role: "member" } });
    const token = (await lastEmailTo(member)).match(/\/invitations\/([A-Za-z0-9_-]+)/)![1];
    await api("POST", "/api/dashboard/invitations/accept", { headers: dashboard, body: { token, password: PASSWORD } });
    const refused = await api("DELETE", "/api/dashboard/user", { ...as(owner.cookie), body: { confirm_email: owner.email, password: PASSWORD } });
    expect(refused).toMatchObject({ status: 409, body: { code: "last_owner" } });
  });
});
