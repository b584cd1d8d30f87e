import { describe, expect, it } from "vitest";
import { api, baseUrl, lastEmailTo, uniqueEmail } from "./support/api";
import { askForSignInLink, passwordSignIn, signInLinkOf, signUp } from "./support/sessions";
import { as, colleague, dashboard, invitationLink, newOwner, PASSWORD } from "./support/team";

// E-mails that carry a secret (sign-in, sign-up, invitation and address-change links) are read by
// their addressee only: every role of the organization, another organization and a signed-out client
// read every route that shows e-mails and find no token. This server sends no e-mail (no
// RESEND_API_KEY), so the links wait in its outbox; lib/email/send.test.ts checks the Resend side.

const EMAIL_CHANGE_LINK = /\/email-change\/([A-Za-z0-9_-]+)/;

/** Everything `cookie` can read of the outbox: the list, and each e-mail of `ids` by its id (the API and the page). */
async function outboxAsSeenBy(cookie: string | undefined, ids: number[]) {
  const headers = cookie ? as(cookie).headers : dashboard;
  const seen: string[] = [JSON.stringify((await api("GET", "/api/dashboard/outbox?limit=100", { headers })).body)];
  for (const id of ids) {
    const one = await api("GET", `/api/dashboard/outbox/${id}`, { headers });
    seen.push(`${one.status} ${JSON.stringify(one.body)}`);
  }
  const page = await fetch(new URL(`/outbox/${ids.at(-1)}`, baseUrl), { headers: cookie ? { cookie } : {}, redirect: "manual" });
  seen.push(`${page.status} ${await page.text()}`);
  seen.push(JSON.stringify((await api("GET", `/api/operator/emails?to=${encodeURIComponent("x@example.com")}`, { headers })).body));
  return seen.join("\n");
}

describe("e-mails that carry a secret", () => {
  it("are read by their addressee only: no role, no other organization and no signed-out client finds a token", async () => {
    const owner = await newOwner();
    const admin = await colleague(owner.cookie, "admin");
    const member = await colleague(owner.cookie, "member");
    const viewer = await colleague(owner.cookie, "viewer");
    const stranger = await newOwner();

    // Signed out, anyone asks for the owner's sign-in link.
    await askForSignInLink(owner.email);
    const signInToken = (await signInLinkOf(owner.email)).searchParams.get("token")!;
    // Sign-up again with the owner's address: the note carries another sign-in link.
    await signUp(owner.email);
    const existingToken = (await signInLinkOf(owner.email)).searchParams.get("token")!;
    expect(existingToken).not.toBe(signInToken);
    // An invitation waiting for a new admin, and a new address that the owner asked for.
    const invited = uniqueEmail("invited");
    expect((await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: invited, role: "admin" } })).status).toBe(201);
    const invitationToken = (await invitationLink(invited)).token;
    const moved = uniqueEmail("moved");
    expect((await api("POST", "/api/dashboard/email", { ...as(owner.cookie), body: { new_email: moved, password: PASSWORD } })).status).toBe(202);
    const changeToken = (await lastEmailTo(moved)).match(EMAIL_CHANGE_LINK)![1]!;
    const tokens = [signInToken, existingToken, invitationToken, changeToken];

    // The owner reads its own e-mails, links whole, and none of the e-mails to the other addresses.
    const own = await api("GET", "/api/dashboard/outbox?limit=100", as(owner.cookie));
    expect(own.status).toBe(200);
    expect(new Set(own.body.data.map((email: { to: string }) => email.to))).toEqual(new Set([owner.email]));
    const newest = Math.max(...own.body.data.map((email: { id: number }) => email.id));
    const ownText = JSON.stringify(await Promise.all(own.body.data.map(async (email: { id: number }) => (await api("GET", `/api/dashboard/outbox/${email.id}`, as(owner.cookie))).body)));
    expect(ownText).toContain(signInToken);
    expect(ownText).toContain(existingToken);
    expect(ownText).not.toContain(invitationToken);
    expect(ownText).not.toContain(changeToken);

    // Every e-mail of the last stretch of ids, by every route, as every other reader.
    const ids = Array.from({ length: 30 }, (_, i) => newest + 5 - i).filter((id) => id > 0);
    for (const reader of [admin, member, viewer, stranger, undefined]) {
      const seen = await outboxAsSeenBy(reader?.cookie, ids);
      for (const token of tokens) expect(seen, reader?.email ?? "signed out").not.toContain(token);
    }
    // A reader sees its own e-mails only: its invitation, nobody else's.
    const viewerOutbox = await api("GET", "/api/dashboard/outbox?limit=100", as(viewer.cookie));
    expect(new Set(viewerOutbox.body.data.map((email: { to: string }) => email.to))).toEqual(new Set([viewer.email]));
  });
});

describe("an address is proven before it is used", () => {
  it("a change of address waits for the new address's link, which the requester cannot read", async () => {
    const owner = await newOwner();
    const claimed = uniqueEmail("victim");
    expect((await api("POST", "/api/dashboard/email", { ...as(owner.cookie), body: { new_email: claimed, password: PASSWORD } })).status).toBe(202);
    const changeToken = (await lastEmailTo(claimed)).match(EMAIL_CHANGE_LINK)![1];
    // The requester's outbox has the notice to its own address, not the link to the new one.
    const outbox = (await api("GET", "/api/dashboard/outbox?limit=100", as(owner.cookie))).body.data as { to: string; subject: string }[];
    expect(outbox.every((email) => email.to === owner.email)).toBe(true);
    expect(outbox.map((email) => email.subject)).toContainEqual(expect.stringMatching(/^A change of your Preheat address was asked for/));
    // Until the link is followed, the address is not the requester's: an invitation to it stays unusable to them.
    expect((await passwordSignIn(claimed, PASSWORD)).result).toBe("CredentialsSignin");
    const other = await newOwner();
    expect((await api("POST", "/api/dashboard/invitations", { ...as(other.cookie), body: { email: claimed, role: "admin" } })).status).toBe(201);
    const { token } = await invitationLink(claimed);
    const refused = await api("POST", "/api/dashboard/invitations/accept", { ...as(owner.cookie), body: { token } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/This invitation is for/);
    // The new address's link makes the change; the invitation is then the owner's to accept.
    expect((await api("POST", "/api/dashboard/email/confirm", { headers: dashboard, body: { token: changeToken } })).body).toEqual({ email: claimed });
    expect((await passwordSignIn(claimed, PASSWORD)).result).toBe("ok");
  });
});
