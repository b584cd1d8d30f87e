import { changeRole, removeMember, toMemberView } from "@/lib/accounts/members";
import { roleRefusal } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import { json, noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { changeRoleBody, memberParams } from "@/lib/accounts/team-schemas";

// PATCH /api/dashboard/members/{userId} – gives a member another role (owners only; the last owner stays owner)
export const PATCH = withSession(
  { params: memberParams, body: changeRoleBody, role: "owner", audit: { action: "member.role_changed", target: "user", changes: true } },
  async ({ ctx, params, body }) => json(toMemberView(await changeRole(ctx, params.userId, body.role))),
);

// DELETE /api/dashboard/members/{userId} – removes a member (owners), or leaves the organization (one's own id, any role)
export const DELETE = withSession({ params: memberParams, audit: { action: "member.removed", target: "user" } }, async ({ ctx, user, params }) => {
  if (params.userId !== user.userId) {
    const refused = roleRefusal(user.role, "owner");
    if (refused) return refused;
  }
  await removeMember(ctx, params.userId);
  return noContent();
});

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
