import { deleteUser } from "@/lib/accounts/user-account";
import { otherMethods } from "@/lib/api/methods";
import { noContent } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { deleteUserBody } from "@/lib/accounts/team-schemas";

// DELETE /api/dashboard/user – deletes the signed-in user (its address typed again, and its password), with the organizations it alone is in
export const DELETE = withSession({ body: deleteUserBody, ownAccount: true }, async ({ ctx, user, body }) => {
  await deleteUser(ctx.db, user, body);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
