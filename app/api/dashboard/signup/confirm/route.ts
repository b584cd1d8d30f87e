import { z } from "zod";
import { confirmSignUp } from "@/lib/accounts/sign-up";
import { toErrorResponse } from "@/lib/api/errors";
import { parseBody } from "@/lib/api/input";
import { json, otherMethods } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { getDb } from "@/lib/db";

const confirmBody = z.object({ token: z.string().min(1, "The link has no token.").max(200) });

// POST /api/dashboard/signup/confirm – follows a sign-up link: creates the account (the address is proven)
export async function POST(request: Request) {
  try {
    requireJsonOrDashboard(request);
    const { token } = await parseBody(request, confirmBody);
    const { email, created } = await confirmSignUp(await getDb(), token);
    return json({ email, created }, created ? 201 : 200);
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
