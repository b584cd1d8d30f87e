import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { regionsWithEgress } from "@/lib/warm/workers";

// GET /api/dashboard/regions – every region and how its calls leave now (the region choices' labels)
export const GET = withSession({}, async ({ ctx }) => json({ data: await regionsWithEgress(ctx.db) }));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
