import { listMembers, toMemberView } from "@/lib/accounts/members";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// GET /api/dashboard/members – the organization's members and their roles
export const GET = withSession({}, async ({ ctx }) => json({ data: (await listMembers(ctx)).map(toMemberView) }));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
