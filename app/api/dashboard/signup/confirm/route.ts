import { z } from "zod";
import { confirmSignUp } from "@/lib/accounts/sign-up";
import { parseBody, readBodyText } from "@/lib/api/input";
import { answerFromClientBudget, otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { getDb } from "@/lib/db";
import { organizationBody } from "@/lib/accounts/team-schemas";

const confirmBody = z.object({
  token: z.string().min(1, "The link has no token.").max(200),
  password: z.string().min(1, "Choose a password."),
  // Optional, so that a client that sends none still creates the user: its first page then asks for the name.
  organization_name: organizationBody.shape.name.optional(),
});

// POST /api/dashboard/signup/confirm – follows a sign-up link: creates the user, with the password chosen here (the address is proven), and the organization named here
export function POST(request: Request) {
  return answerFromClientBudget(request, async () => {
    requireJsonOrDashboard(request);
    const body = parseBody(await readBodyText(request), confirmBody);
    const { email, created } = await confirmSignUp(await getDb(), { token: body.token, password: body.password, organizationName: body.organization_name });
    return json({ email, created }, created ? 201 : 200);
  });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
