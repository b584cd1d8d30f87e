import { z } from "zod";
import { idString } from "@/lib/core/primitives";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { getOutboxEmail } from "@/lib/email/outbox";

const emailParams = z.object({ emailId: idString });

// GET /api/dashboard/outbox/{emailId} – one e-mail to the signed-in user with its HTML and text parts; anyone else's is a 404
export const GET = withSession({ params: emailParams, ownAccount: true }, async ({ ctx, user, params }) => json(await getOutboxEmail({ db: ctx.db, email: user.email }, params.emailId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
