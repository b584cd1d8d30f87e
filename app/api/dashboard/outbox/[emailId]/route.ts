import { z } from "zod";
import { idString } from "@/lib/core/primitives";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { getOutboxEmail } from "@/lib/email/outbox";

const emailParams = z.object({ emailId: idString });

// GET /api/dashboard/outbox/{emailId} – one e-mail with its HTML and text parts
export const GET = withSession({ params: emailParams }, async ({ ctx, params }) => json(await getOutboxEmail(ctx, params.emailId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
