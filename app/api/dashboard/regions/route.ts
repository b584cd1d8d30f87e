import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { regionsOffered } from "@/lib/accounts/me";

// GET /api/dashboard/regions – the regions the organization's plan offers and how their calls leave now (the region choices)
export const GET = withSession({}, async ({ ctx }) => json({ data: await regionsOffered(ctx.db, ctx.accountId) }));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
