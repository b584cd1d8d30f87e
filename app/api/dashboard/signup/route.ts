import { z } from "zod";
import { toErrorResponse } from "@/lib/api/errors";
import { parseBody } from "@/lib/api/input";
import { errorResponse, json, otherMethods } from "@/lib/api/responses";
import { clientAddress, signInLimits } from "@/lib/auth/attempts";
import { signUpWithPassword } from "@/lib/accounts/passwords";
import { getDb } from "@/lib/db";

const signUpBody = z.object({
  email: z.string().trim().min(1, "Enter your e-mail address."),
  password: z.string().min(1, "Choose a password."),
  name: z.string().trim().max(100).optional(),
});

// POST /api/dashboard/signup – creates the account and its owner; the page then signs in with next-auth.
export async function POST(request: Request) {
  try {
    const client = clientAddress(request.headers.get("x-forwarded-for"));
    const { signUps } = signInLimits();
    const wait = signUps.retryAfterSeconds(client);
    if (wait) return errorResponse(429, `Too many sign-ups from here: try again in ${Math.ceil(wait / 60)} minutes.`);
    signUps.record(client);
    const body = await parseBody(request, signUpBody);
    const user = await signUpWithPassword(await getDb(), body);
    return json({ id: user.id, email: user.email }, 201);
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
