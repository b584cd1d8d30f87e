import { confirmEmailChange } from "@/lib/accounts/user-account";
import { parseBody, readBodyText } from "@/lib/api/input";
import { answerFromClientBudget, otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { confirmEmailChangeBody } from "@/lib/accounts/team-schemas";
import { getDb } from "@/lib/db";

// POST /api/dashboard/email/confirm – the new address's link: the user signs in with it from now on
export function POST(request: Request) {
  return answerFromClientBudget(request, async () => {
    requireJsonOrDashboard(request);
    return json(await confirmEmailChange(await getDb(), parseBody(await readBodyText(request), confirmEmailChangeBody).token));
  });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
