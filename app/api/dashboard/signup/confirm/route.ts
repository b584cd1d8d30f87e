import { z } from "zod";
import { confirmSignUp } from "@/lib/accounts/sign-up";
import { parseBody, readBodyText } from "@/lib/api/input";
import { answerFromClientBudget, otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { getDb } from "@/lib/db";

const confirmBody = z.object({ token: z.string().min(1, "The link has no token.").max(200), password: z.string().min(1, "Choose a password.") });

// POST /api/dashboard/signup/confirm – follows a sign-up link: creates the account, with the password chosen here (the address is proven)
export function POST(request: Request) {
  return answerFromClientBudget(request, async () => {
    requireJsonOrDashboard(request);
    const body = parseBody(await readBodyText(request), confirmBody);
    const { email, created } = await confirmSignUp(await getDb(), body);
    return json({ email, created }, created ? 201 : 200);
  });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
