import { emailsQuery } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";
import { latestEmailsTo, toOutboxItem } from "@/lib/email/outbox";

// GET /api/operator/emails?to=&last= – the newest e-mails to an address, whichever organization they belong to, with their text
export const GET = withOperator({ query: emailsQuery }, async ({ db, query }) =>
  json({ data: (await latestEmailsTo(db, query.to, query.last)).map((row) => ({ ...toOutboxItem(row), text: row.text })) }),
);

export const { POST, PUT, PATCH, DELETE } = otherOperatorMethods("GET");
