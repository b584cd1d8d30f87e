import { paginationQuery } from "@/lib/core/pagination";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { listOutbox } from "@/lib/email/outbox";

// GET /api/dashboard/outbox – the e-mails to the signed-in user, newest first (nobody else's: they carry links)
export const GET = withSession({ query: paginationQuery, ownAccount: true }, async ({ ctx, user, query }) => json(await listOutbox({ db: ctx.db, email: user.email }, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
