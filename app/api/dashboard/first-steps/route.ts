import { firstSteps } from "@/lib/accounts/first-steps";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";

// GET /api/dashboard/first-steps – which of the first steps the organization has taken (the home page's checklist)
export const GET = withSession({}, async ({ ctx }) => json(await firstSteps(ctx)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
