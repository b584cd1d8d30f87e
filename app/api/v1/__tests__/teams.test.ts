import { describe, expect, it } from "vitest";
import { operations } from "@/lib/api/operations";
import { requiredRole } from "@/lib/api/operation";
import { ROLES, type Role, roleAllows } from "@/lib/core/roles";
import { api, createValidatedSite, lastEmailTo, linkIn, TRUSTED_PROXY, uniqueDomain, uniqueEmail } from "./support/api";
import { confirm, followNewSignInLink, sessionOf, signUp, uniqueClient } from "./support/sessions";
import { as, colleague, dashboard, invitationLink, newOwner, PASSWORD } from "./support/team";

// Organizations: members with roles, invitations by e-mail, switching, and sessions that end at once.

describe("invitations", () => {
  it("a member invited by e-mail joins, sees the organization's sites, runs and warms, and cannot delete a site", async () => {
    const owner = await newOwner();
    const site = await createValidatedSite(owner.key);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key: owner.key, body: { name: "Home", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    expect(boost.status).toBe(201);
    const member = await colleague(owner.cookie, "member");
    const page = await fetch((await invitationLink(member.email)).url);
    expect(page.status).toBe(200);
    const sites = await api("GET", "/v1/sites", as(member.cookie));
    expect(sites.body.data.map((s: { id: number }) => s.id)).toEqual([site.id]);
    expect((await api("POST", `/v1/boosts/${boost.body.id}/run`, as(member.cookie))).status).toBe(202);
    const deleted = await api("DELETE", `/v1/sites/${site.id}`, as(member.cookie));
    expect(deleted.status).toBe(403);
    expect(deleted.body).toMatchObject({ code: "insufficient_role", required_role: "admin", role: "member" });
    expect((await api("GET", `/v1/sites/${site.id}`, as(member.cookie))).status).toBe(200);
  });

  it("works once: a used, declined or revoked invitation's link is refused", async () => {
    const owner = await newOwner();
    const member = await colleague(owner.cookie, "viewer");
    const { token } = await invitationLink(member.email);
    const again = await api("POST", "/api/dashboard/invitations/accept", { headers: dashboard, body: { token, password: PASSWORD } });
    expect(again).toMatchObject({ status: 409, body: { code: "invitation_unusable" } });

    const declinedEmail = uniqueEmail("declines");
    await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: declinedEmail, role: "member" } });
    const declined = (await invitationLink(declinedEmail)).token;
    expect((await api("POST", "/api/dashboard/invitations/decline", { headers: dashboard, body: { token: declined } })).status).toBe(204);
    expect((await api("POST", "/api/dashboard/invitations/accept", { headers: dashboard, body: { token: declined, password: PASSWORD } })).body.code).toBe("invitation_unusable");

    const revokedEmail = uniqueEmail("revoked");
    const revokedInvitation = await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: revokedEmail, role: "member" } });
    const revoked = (await invitationLink(revokedEmail)).token;
    expect((await api("DELETE", `/api/dashboard/invitations/${revokedInvitation.body.id}`, as(owner.cookie))).body.state).toBe("revoked");
    expect((await api("POST", "/api/dashboard/invitations/accept", { headers: dashboard, body: { token: revoked, password: PASSWORD } })).body.code).toBe("invitation_unusable");
    const listed = await api("GET", "/api/dashboard/invitations", as(owner.cookie));
    expect(listed.body.data.map((i: { email: string; state: string }) => [i.email, i.state])).toEqual([
      [revokedEmail, "revoked"],
      [declinedEmail, "declined"],
      [member.email, "accepted"],
    ]);
  });

  it("refuses a member or a pending invitation twice, and caps re-sending", async () => {
    const owner = await newOwner();
    expect((await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: owner.email, role: "admin" } })).body.code).toBe("already_member");
    const email = uniqueEmail("twice");
    const first = await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email, role: "member" } });
    expect((await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email, role: "member" } })).body.code).toBe("already_member");
    const resent = await api("POST", `/api/dashboard/invitations/${first.body.id}/resend`, as(owner.cookie));
    expect(resent.status).toBe(429);
    expect(resent.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: "not an address", role: "member" } })).status).toBe(422);
    expect((await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email, role: "emperor" } })).status).toBe(422);
  });

  it("a signed-in user of the invited address accepts from the session, which then works in the new organization", async () => {
    const owner = await newOwner();
    const other = await newOwner();
    const site = await createValidatedSite(owner.key, uniqueDomain("agency"));
    await api("POST", "/api/dashboard/invitations", { ...as(owner.cookie), body: { email: other.email, role: "admin" } });
    const { token } = await invitationLink(other.email);
    const accepted = await api("POST", "/api/dashboard/invitations/accept", { ...as(other.cookie), body: { token } });
    expect(accepted).toMatchObject({ status: 200, body: { signed_in: true, role: "admin" } });
    expect((await api("GET", "/v1/sites", as(other.cookie))).body.data.map((s: { id: number }) => s.id)).toEqual([site.id]);
    // Switching organizations shows the other organization's sites only.
    const organizations = await api("GET", "/api/dashboard/organizations", as(other.cookie));
    expect(organizations.body.data).toHaveLength(2);
    const own = organizations.body.data.find((o: { current: boolean }) => !o.current);
    expect((await api("POST", `/api/dashboard/organizations/${own.id}/switch`, as(other.cookie))).status).toBe(204);
    expect((await api("GET", "/v1/sites", as(other.cookie))).body.data).toEqual([]);
    expect((await api("GET", `/v1/sites/${site.id}`, as(other.cookie))).status).toBe(404);
    // Not a member: no switching into it.
    const stranger = await newOwner();
    const theirs = (await api("GET", "/api/dashboard/organization", as(stranger.cookie))).body.id;
    expect((await api("POST", `/api/dashboard/organizations/${theirs}/switch`, as(other.cookie))).status).toBe(404);
  });
});

describe("roles", () => {
  it("a viewer reads everything and runs nothing", async () => {
    const owner = await newOwner();
    const site = await createValidatedSite(owner.key);
    const boost = await api("POST", `/v1/sites/${site.id}/boosts`, { key: owner.key, body: { name: "Home", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: ["fr"] } });
    const viewer = await colleague(owner.cookie, "viewer");
    expect((await api("GET", `/v1/boosts/${boost.body.id}`, as(viewer.cookie))).status).toBe(200);
    for (const [method, path] of [
      ["POST", `/v1/boosts/${boost.body.id}/run`],
      ["POST", `/v1/sites/${site.id}/warm`],
    ] as const) {
      const refused = await api(method, path, { ...as(viewer.cookie), body: { urls: [`https://${site.domain}/`] } });
      expect(refused, path).toMatchObject({ status: 403, body: { code: "insufficient_role", required_role: "member" } });
    }
    expect((await api("GET", "/api/dashboard/keys", as(viewer.cookie))).status).toBe(200);
    expect((await api("POST", "/api/dashboard/keys", { ...as(viewer.cookie), body: { name: "x", scopes: ["sites:read"] } })).body.code).toBe("insufficient_role");
    expect((await api("POST", "/api/dashboard/invitations", { ...as(viewer.cookie), body: { email: uniqueEmail(), role: "owner" } })).body.code).toBe("insufficient_role");
  });

  it("every /v1 operation checks the role of every member", async () => {
    const owner = await newOwner();
    const sessions: Record<Role, string> = { owner: owner.cookie, admin: "", member: "", viewer: "" };
    for (const role of ["admin", "member", "viewer"] as const) sessions[role] = (await colleague(owner.cookie, role)).cookie;
    // Ids nobody has: an allowed role gets past the role check (to a 404 or a 422), a refused one is stopped by it.
    const fill = (path: string) => path.replace(/\{[^}]+\}/g, "999999999");
    for (const op of operations.filter((o) => o.auth !== "token" && o.session !== false)) {
      for (const role of ROLES) {
        const response = await api(op.method.toUpperCase(), fill(op.path), { ...as(sessions[role]), body: op.body ? {} : undefined });
        const allowed = roleAllows(role, requiredRole(op));
        if (allowed) expect(response.body?.code, `${op.operationId} as ${role}`).not.toBe("insufficient_role");
        else expect(response.body, `${op.operationId} as ${role}`).toMatchObject({ code: "insufficient_role", required_role: requiredRole(op) });
      }
    }
  });

  it("only owners manage members; the last owner cannot leave or be demoted", async () => {
    const owner = await newOwner();
    const admin = await colleague(owner.cookie, "admin");
    const members = await api("GET", "/api/dashboard/members", as(admin.cookie));
    const byEmail = (email: string) => members.body.data.find((m: { email: string }) => m.email === email).user_id as number;
    const ownerId = byEmail(owner.email);
    const adminId = byEmail(admin.email);
    expect((await api("PATCH", `/api/dashboard/members/${adminId}`, { ...as(admin.cookie), body: { role: "owner" } })).body.code).toBe("insufficient_role");
    expect((await api("DELETE", `/api/dashboard/members/${ownerId}`, as(admin.cookie))).body.code).toBe("insufficient_role");
    expect((await api("PATCH", `/api/dashboard/members/${ownerId}`, { ...as(owner.cookie), body: { role: "admin" } })).body.code).toBe("last_owner");
    expect((await api("DELETE", `/api/dashboard/members/${ownerId}`, as(owner.cookie))).body.code).toBe("last_owner");
    expect((await api("PATCH", `/api/dashboard/members/${adminId}`, { ...as(owner.cookie), body: { role: "owner" } })).body.role).toBe("owner");
    // Two owners now: the first may step down.
    expect((await api("PATCH", `/api/dashboard/members/${ownerId}`, { ...as(owner.cookie), body: { role: "viewer" } })).body.role).toBe("viewer");
  });
});

describe("the dashboard's own routes", () => {
  it("check the role too: keys need admin, members, invitations and the organization's settings need owner", async () => {
    const owner = await newOwner();
    const sessions: Record<Role, string> = { owner: owner.cookie, admin: "", member: "", viewer: "" };
    for (const role of ["admin", "member", "viewer"] as const) sessions[role] = (await colleague(owner.cookie, role)).cookie;
    const routes: [string, string, unknown, Role][] = [
      ["POST", "/api/dashboard/keys", { name: "k", scopes: ["sites:read"] }, "admin"],
      ["DELETE", "/api/dashboard/keys/999999999", undefined, "admin"],
      ["PATCH", "/api/dashboard/members/999999999", { role: "viewer" }, "owner"],
      ["DELETE", "/api/dashboard/members/999999999", undefined, "owner"],
      ["POST", "/api/dashboard/invitations", { email: uniqueEmail("matrix"), role: "viewer" }, "owner"],
      ["DELETE", "/api/dashboard/invitations/999999999", undefined, "owner"],
      ["POST", "/api/dashboard/invitations/999999999/resend", undefined, "owner"],
      ["PATCH", "/api/dashboard/organization", { name: "Renamed" }, "owner"],
      ["DELETE", "/api/dashboard/organization", { confirm_name: "not it" }, "owner"],
    ];
    for (const [method, path, body, needed] of routes) {
      for (const role of ROLES) {
        const response = await api(method, path, { ...as(sessions[role]), body });
        if (roleAllows(role, needed)) expect(response.body?.code, `${method} ${path} as ${role}`).not.toBe("insufficient_role");
        else expect(response.body, `${method} ${path} as ${role}`).toMatchObject({ code: "insufficient_role", required_role: needed });
      }
    }
    // Reads are everybody's.
    for (const path of ["/api/dashboard/keys", "/api/dashboard/members", "/api/dashboard/invitations", "/api/dashboard/organization", "/api/dashboard/outbox"]) {
      expect((await api("GET", path, as(sessions.viewer))).status, path).toBe(200);
    }
  });
});

describe("the organization's settings", () => {
  it("refuses a PATCH that changes nothing ({} or only unknown fields) with a 422 that says so, and changes nothing", async () => {
    const owner = await newOwner();
    const before = (await api("GET", "/api/dashboard/organization", as(owner.cookie))).body;
    for (const body of [{}, { nme: "Typo" }, { require_2fa: true }]) {
      const refused = await api("PATCH", "/api/dashboard/organization", { ...as(owner.cookie), body });
      expect(refused, JSON.stringify(body)).toMatchObject({ status: 422, body: { code: "validation_failed" } });
      expect(refused.body.error).toContain("changes nothing");
    }
    expect((await api("GET", "/api/dashboard/organization", as(owner.cookie))).body).toEqual(before);
    expect((await api("GET", "/v1/audit-log?action=organization.updated", as(owner.cookie))).body.data).toEqual([]);
  });
});

describe("sessions", () => {
  it("removing a member ends their open session at once", async () => {
    const owner = await newOwner();
    const member = await colleague(owner.cookie, "member");
    expect((await api("GET", "/v1/sites", as(member.cookie))).status).toBe(200);
    const members = await api("GET", "/api/dashboard/members", as(owner.cookie));
    const id = members.body.data.find((m: { email: string }) => m.email === member.email).user_id;
    expect((await api("DELETE", `/api/dashboard/members/${id}`, as(owner.cookie))).status).toBe(204);
    expect(await api("GET", "/v1/sites", as(member.cookie))).toMatchObject({ status: 401, body: { code: "session_expired" } });
    // The audit log tells each step with its actor.
    const log = await api("GET", "/v1/audit-log?action=member.", as(owner.cookie));
    expect(log.body.data.map((e: { action: string; actor: { label: string } }) => [e.action, e.actor.label]).reverse()).toEqual([
      ["member.invited", owner.email],
      ["member.joined", member.email],
      ["member.removed", owner.email],
    ]);
  });

  it("a removed member signs in again to no organization: none is made for them, and the one they create bears the name they give", async () => {
    const owner = await newOwner();
    const member = await colleague(owner.cookie, "member");
    // The invitation said what a member may do on its own, not what it adds to a viewer.
    const invitation = await lastEmailTo(member.email);
    expect(invitation).toContain("as member. A member reads everything: sites,");
    expect(invitation).not.toMatch(/\balso\b/);
    const id = (await api("GET", "/api/dashboard/members", as(owner.cookie))).body.data.find((m: { email: string }) => m.email === member.email).user_id;
    expect((await api("DELETE", `/api/dashboard/members/${id}`, as(owner.cookie))).status).toBe(204);
    expect(await api("GET", "/api/dashboard/organizations", as(member.cookie))).toMatchObject({ status: 401, body: { code: "session_expired" } });

    const again = await sessionOf(member.email, PASSWORD);
    expect(await api("GET", "/api/dashboard/organizations", as(again))).toMatchObject({ status: 200, body: { data: [] } });
    // Nothing of any organization is open to it, and it reaches none of the owner's.
    expect((await api("GET", "/v1/sites", as(again))).status).toBe(401);
    expect((await api("POST", "/api/dashboard/organizations", { ...as(again), body: { name: "  " } })).status).toBe(422);
    const created = await api("POST", "/api/dashboard/organizations", { ...as(again), body: { name: "Fresh start" } });
    expect(created).toMatchObject({ status: 201, body: { name: "Fresh start", role: "owner", current: true } });
    expect(await api("GET", "/v1/sites", as(again))).toMatchObject({ status: 200, body: { data: [] } });
    // The session the removal ended stays ended.
    expect((await api("GET", "/api/dashboard/organizations", as(member.cookie))).status).toBe(401);
  });

  it("a member who leaves goes on in their other organization, in the same session", async () => {
    const owner = await newOwner();
    const ownerOrganization = (await api("GET", "/api/dashboard/organization", as(owner.cookie))).body.id as number;
    const member = await colleague(owner.cookie, "member");
    const own = await api("POST", "/api/dashboard/organizations", { ...as(member.cookie), body: { name: "Member's own" } });
    expect(own.status).toBe(201);
    expect((await api("POST", `/api/dashboard/organizations/${ownerOrganization}/switch`, as(member.cookie))).status).toBeLessThan(300);
    const id = (await api("GET", "/api/dashboard/members", as(member.cookie))).body.data.find((m: { email: string }) => m.email === member.email).user_id;
    expect((await api("DELETE", `/api/dashboard/members/${id}`, as(member.cookie))).status).toBe(204);
    const left = await api("GET", "/api/dashboard/organizations", as(member.cookie));
    expect(left.status).toBe(200);
    expect(left.body.data).toEqual([expect.objectContaining({ id: own.body.id, name: "Member's own", current: true })]);
  });

  it("removing an admin revokes the keys they created, unless the owner keeps them; the audit log says which", async () => {
    const owner = await newOwner();
    const memberId = async (email: string) => (await api("GET", "/api/dashboard/members", as(owner.cookie))).body.data.find((m: { email: string }) => m.email === email).user_id as number;
    const adminKey = async (cookie: string) => {
      const created = await api("POST", "/api/dashboard/keys", { ...as(cookie), body: { name: "deploys", scopes: ["sites:read", "sites:write"] } });
      expect(created.status).toBe(201);
      return created.body as { key: string; api_key: { id: number } };
    };

    const leaving = await colleague(owner.cookie, "admin");
    const revoked = await adminKey(leaving.cookie);
    expect((await api("GET", "/v1/sites", { key: revoked.key })).status).toBe(200);
    const removed = await memberId(leaving.email);
    expect((await api("DELETE", `/api/dashboard/members/${removed}`, as(owner.cookie))).status).toBe(204);
    expect(await api("GET", "/v1/sites", { key: revoked.key })).toMatchObject({ status: 401, body: { code: "invalid_api_key" } });
    // The owner's own key, created by someone else, still works.
    expect((await api("GET", "/v1/sites", { key: owner.key })).status).toBe(200);

    const kept = await colleague(owner.cookie, "admin");
    const keptKey = await adminKey(kept.cookie);
    const keptId = await memberId(kept.email);
    // Query and body must not disagree; an unknown value is refused; nothing changes either way.
    expect((await api("DELETE", `/api/dashboard/members/${keptId}?revoke_keys=false`, { ...as(owner.cookie), body: { revoke_keys: true } })).status).toBe(422);
    expect((await api("DELETE", `/api/dashboard/members/${keptId}?revoke_keys=no`, as(owner.cookie))).status).toBe(422);
    expect((await api("GET", "/api/dashboard/members", as(owner.cookie))).body.data.map((m: { email: string }) => m.email)).toContain(kept.email);
    expect((await api("DELETE", `/api/dashboard/members/${keptId}`, { ...as(owner.cookie), body: { revoke_keys: false } })).status).toBe(204);
    expect((await api("GET", "/v1/sites", { key: keptKey.key })).status).toBe(200);

    const log = (await api("GET", "/v1/audit-log?target_type=key", as(owner.cookie))).body.data.map((e: { action: string; target: { id: string }; actor: { label: string } }) => [
      e.action,
      e.target.id,
      e.actor.label,
    ]);
    expect(log).toContainEqual(["key.revoked", String(revoked.api_key.id), owner.email]);
    expect(log).toContainEqual(["key.kept", String(keptKey.api_key.id), owner.email]);
    const removals = (await api("GET", "/v1/audit-log?action=member.removed", as(owner.cookie))).body.data.map((e: { target: { id: string } }) => e.target.id);
    expect(removals.sort()).toEqual([String(removed), String(keptId)].sort());
    const keys = (await api("GET", "/api/dashboard/keys", as(owner.cookie))).body.data;
    expect(keys.find((k: { id: number }) => k.id === revoked.api_key.id).state).toBe("revoked");
    expect(keys.find((k: { id: number }) => k.id === keptKey.api_key.id).state).toBe("active");
  });

  it("a member leaving takes their keys along; keeping them working is an owner's choice", async () => {
    const owner = await newOwner();
    const admin = await colleague(owner.cookie, "admin");
    const created = await api("POST", "/api/dashboard/keys", { ...as(admin.cookie), body: { name: "mine", scopes: ["sites:read"] } });
    const adminId = (await api("GET", "/api/dashboard/members", as(admin.cookie))).body.data.find((m: { email: string }) => m.email === admin.email).user_id;
    expect((await api("DELETE", `/api/dashboard/members/${adminId}?revoke_keys=false`, as(admin.cookie))).body).toMatchObject({ code: "insufficient_role", required_role: "owner" });
    expect((await api("GET", "/v1/sites", { key: created.body.key })).status).toBe(200);
    expect((await api("DELETE", `/api/dashboard/members/${adminId}`, as(admin.cookie))).status).toBe(204);
    expect((await api("GET", "/v1/sites", { key: created.body.key })).status).toBe(401);
  });

  it("are listed with this one marked; one or all others can be ended", async () => {
    const owner = await newOwner();
    const other = await sessionOf(owner.email, PASSWORD);
    const third = await sessionOf(owner.email, PASSWORD);
    const listed = await api("GET", "/api/dashboard/sessions", as(owner.cookie));
    expect(listed.body.data).toHaveLength(3);
    expect(listed.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(owner.cookie.split("=")[1]!.slice(0, 40));
    const otherId = (await api("GET", "/api/dashboard/sessions", as(other))).body.data.find((s: { current: boolean }) => s.current).id;
    expect((await api("DELETE", `/api/dashboard/sessions/${otherId}`, as(owner.cookie))).status).toBe(204);
    expect((await api("GET", "/v1/sites", as(other))).status).toBe(401);
    expect((await api("GET", "/v1/sites", as(third))).status).toBe(200);
    expect((await api("DELETE", "/api/dashboard/sessions?others=true", as(owner.cookie))).status).toBe(204);
    expect((await api("GET", "/v1/sites", as(third))).status).toBe(401);
    expect((await api("GET", "/v1/sites", as(owner.cookie))).status).toBe(200);
    // Another user's session is not found.
    const stranger = await newOwner();
    const theirs = (await api("GET", "/api/dashboard/sessions", as(stranger.cookie))).body.data[0].id;
    expect((await api("DELETE", `/api/dashboard/sessions/${theirs}`, as(owner.cookie))).status).toBe(404);
  });
});

describe("a new user's organization", () => {
  it("is named at sign-up's confirmation, never after the address; confirmed without a name, the user belongs to none", async () => {
    const named = uniqueEmail("named");
    expect((await signUp(named, TRUSTED_PROXY, uniqueClient())).status).toBe(201);
    const namedLink = linkIn(await lastEmailTo(named));
    // A blank name is refused before the link is spent: it still works.
    expect((await confirm(namedLink, PASSWORD, " ")).status).toBe(422);
    expect((await confirm(namedLink, PASSWORD, "Acme Web")).status).toBe(201);
    expect((await api("GET", "/api/dashboard/organizations", as(await sessionOf(named, PASSWORD)))).body.data).toEqual([expect.objectContaining({ name: "Acme Web", role: "owner", current: true })]);

    const unnamed = uniqueEmail("unnamed");
    expect((await signUp(unnamed, TRUSTED_PROXY, uniqueClient())).status).toBe(201);
    expect((await confirm(linkIn(await lastEmailTo(unnamed)), PASSWORD, null)).status).toBe(201);
    expect((await api("GET", "/api/dashboard/organizations", as(await sessionOf(unnamed, PASSWORD)))).body).toEqual({ data: [] });
  });

  it("is not made by a first sign-in link either", async () => {
    const email = uniqueEmail("linked");
    const followed = await followNewSignInLink(email);
    const session = followed.headers
      .getSetCookie()
      .find((c) => c.startsWith("next-auth.session-token="))!
      .split(";")[0]!;
    expect((await api("GET", "/api/dashboard/organizations", as(session))).body).toEqual({ data: [] });
  });
});
