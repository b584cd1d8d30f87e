import { getMe } from "@/lib/accounts/me";
import { withApiKey } from "@/lib/api/handler";
import { json, otherMethods } from "@/lib/api/responses";

// GET /v1/me – the caller's account, key scopes, regions and quota
export const GET = withApiKey({ session: false }, async ({ ctx, principal }) => json(await getMe(ctx, principal)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
