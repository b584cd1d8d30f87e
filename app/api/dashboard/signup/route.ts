import { z } from "zod";
import { requestSignUp } from "@/lib/accounts/sign-up";
import { parseBody, readBodyText } from "@/lib/api/input";
import { answerFromClientBudget, otherMethods } from "@/lib/api/methods";
import { errorResponse, json } from "@/lib/api/responses";
import { requireJsonOrDashboard } from "@/lib/api/session-handler";
import { countFailure, secondsUntilAllowed } from "@/lib/auth/rate-limit";
import { signInBudgets } from "@/lib/auth/attempts";
import { getDb } from "@/lib/db";
import { clientAddress } from "@/lib/auth/client-address";

const signUpBody = z.object({
  email: z.string().trim().min(1, "Enter your e-mail address."),
  // Refused rather than ignored, so that no client believes it set a password: the link's page asks for it.
  password: z
    .unknown()
    .refine((value) => value === undefined, "Sign-up takes no password: you choose it on the page the e-mailed link opens.")
    .optional(),
  name: z.string().trim().max(100).optional(),
});

// POST /api/dashboard/signup – e-mails a confirmation link (or, for a known address, a note to its owner)
export function POST(request: Request) {
  return answerFromClientBudget(request, async () => {
    requireJsonOrDashboard(request);
    const client = clientAddress(request.headers);
    const db = await getDb();
    const wait = await secondsUntilAllowed(db, signInBudgets.signUps, client);
    if (wait) return errorResponse(429, "rate_limited", `Too many sign-ups from here: try again in ${Math.ceil(wait / 60)} minutes.`, undefined, { "retry-after": String(wait) });
    await countFailure(db, signInBudgets.signUps, client);
    const body = parseBody(await readBodyText(request), signUpBody);
    const { email } = await requestSignUp(db, { email: body.email, name: body.name, client });
    // The same answer whether or not the address has an account, or its e-mail was over a cap: sign-up enumerates nobody.
    return json({ email, confirmation_sent: true, message: `We sent a link to ${email}: follow it to finish.` }, 201);
  });
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
