import { z } from "zod";
import { InvalidError } from "@/lib/core/errors";
import { idString } from "@/lib/core/primitives";
import { roleSchema } from "@/lib/core/roles";

/** What the dashboard's team routes take: members, invitations, organizations and one's sessions. */
export const memberParams = z.object({ userId: idString });
export const invitationParams = z.object({ invitationId: idString });
export const organizationParams = z.object({ organizationId: idString });
export const sessionParams = z.object({ sessionId: z.string().regex(/^[A-Za-z0-9_-]{24}$/, "Not a session id.") });

export const changeRoleBody = z.object({ role: roleSchema });

/**
 * A removal's choice for the keys the member created: `revoke_keys` in the query (a DELETE's usual
 * place) or in a JSON body, true when neither says. Both at once must agree.
 */
export const removeMemberQuery = z.object({ revoke_keys: z.enum(["true", "false"], "must be true or false").optional() });
export const removeMemberBody = z.object({ revoke_keys: z.boolean("must be true or false").optional() });

export function revokeKeysChoice(query: z.output<typeof removeMemberQuery>, body: z.output<typeof removeMemberBody>): boolean {
  const inQuery = query.revoke_keys === undefined ? undefined : query.revoke_keys === "true";
  if (inQuery !== undefined && body.revoke_keys !== undefined && inQuery !== body.revoke_keys) {
    const message = "the query and the body say different things: give it once";
    throw new InvalidError(`revoke_keys: ${message}.`, [{ field: "revoke_keys", message }]);
  }
  return inQuery ?? body.revoke_keys ?? true;
}
export const inviteBody = z.object({ email: z.string().trim().min(1, "Give an e-mail address.").max(320), role: roleSchema });
const token = z.string().min(1, "The link has no token.").max(200);
export const acceptInvitationBody = z.object({ token, password: z.string().max(1000).optional(), name: z.string().trim().max(100).optional() });
export const declineInvitationBody = z.object({ token });
const organizationName = z.string().trim().min(1, "Give the organization a name.").max(100, "At most 100 characters.");
export const organizationBody = z.object({ name: organizationName });
/** Nothing to change is a mistake of the caller's (an empty or misspelt body), said as such, not an update that writes nothing. */
export const organizationSettingsBody = z
  .object({ name: organizationName.optional(), require_two_factor: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.require_two_factor !== undefined, "Give name or require_two_factor: the body changes nothing.");
export const deleteOrganizationBody = z.object({ confirm_name: z.string().max(200) });
export const endSessionsQuery = z.object({ others: z.enum(["true", "false"]).optional() });
export const twoFactorCodeBody = z.object({ code: z.string().trim().min(1, "Type the code.").max(20) });
export const disableTwoFactorBody = z.object({ code: z.string().trim().max(20).optional(), password: z.string().max(1000).optional() });
export const emailChangeBody = z.object({ new_email: z.string().trim().min(1, "Give the new address.").max(320), password: z.string().max(1000).optional() });
export const confirmEmailChangeBody = z.object({ token });
export const deleteUserBody = z.object({ confirm_email: z.string().max(320), password: z.string().max(1000).optional() });
