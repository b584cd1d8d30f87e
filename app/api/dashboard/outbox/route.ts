import { paginationQuery } from "@/lib/core/pagination";
import { otherMethods } from "@/lib/api/methods";
import { json } from "@/lib/api/responses";
import { withSession } from "@/lib/api/session-handler";
import { listOutbox } from "@/lib/email/outbox";

// GET /api/dashboard/outbox – the account's e-mails, newest first
export const GET = withSession({ query: paginationQuery }, async ({ ctx, query }) => json(await listOutbox(ctx, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
