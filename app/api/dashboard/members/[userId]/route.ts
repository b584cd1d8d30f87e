import { changeRole, removeMember, toMemberView } from "@/lib/accounts/members";
import { roleRefusal } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { changeRoleBody, memberParams, removeMemberBody, removeMemberQuery, revokeKeysChoice } from "@/lib/accounts/team-schemas";
import { actorOf } from "@/lib/api/audit";
import { clientAddress } from "@/lib/auth/client-address";

// PATCH /api/dashboard/members/{userId} – gives a member another role (owners only; the last owner stays owner)
export const PATCH = withSession(
  { params: memberParams, body: changeRoleBody, role: "owner", audit: { action: "member.role_changed", target: "user", changes: true } },
  async ({ ctx, params, body }) => json(toMemberView(await changeRole(ctx, params.userId, body.role))),
);

// DELETE /api/dashboard/members/{userId} – removes a member (owners), or leaves the organization (one's own id, any role);
// the keys the member created are revoked unless `revoke_keys=false` (an owner's choice)
export const DELETE = withSession(
  { params: memberParams, query: removeMemberQuery, body: removeMemberBody, audit: { action: "member.removed", target: "user" } },
  async ({ ctx, user, params, query, body, request }) => {
    const revokeKeys = revokeKeysChoice(query, body);
    // Leaving is anyone's; removing someone else, or keeping a leaver's keys working, is an owner's decision.
    if (params.userId !== user.userId || !revokeKeys) {
      const refused = roleRefusal(user.role, "owner");
      if (refused) return refused;
    }
    await removeMember(ctx, params.userId, { revokeKeys, by: actorOf({ prefix: "", user }), clientAddress: clientAddress(request.headers) });
    return noContent();
  },
);

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
