import { emailsQuery } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { emailsForOperator } from "@/lib/email/outbox";

// GET /api/operator/emails?to=&last= – the newest e-mails to an address, whichever organization they belong to, with their text (a one-time link's only for its addressee)
export const GET = withOperator({ query: emailsQuery }, async ({ db, operator, query }) => json({ data: await emailsForOperator(db, operator, query.to, query.last) }));

export const { POST, PUT, PATCH, DELETE } = otherOperatorMethods("GET");
