import { getMe } from "@/lib/accounts/me";
import { withApiKey } from "@/lib/api/handler";
import * as operations from "@/lib/api/operations/account";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";

// GET /v1/me – the caller's account, key scopes, regions and quota
export const GET = withApiKey(operations.getMe, async ({ ctx, principal }) => json(await getMe(ctx, principal)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
