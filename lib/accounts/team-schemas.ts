import { z } from "zod";
import { idString } from "@/lib/core/primitives";
import { roleSchema } from "@/lib/core/roles";

/** What the dashboard's team routes take: members, invitations, organizations and one's sessions. */
export const memberParams = z.object({ userId: idString });
export const invitationParams = z.object({ invitationId: idString });
export const organizationParams = z.object({ organizationId: idString });
export const sessionParams = z.object({ sessionId: z.string().regex(/^[A-Za-z0-9_-]{24}$/, "Not a session id.") });

export const changeRoleBody = z.object({ role: roleSchema });
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
