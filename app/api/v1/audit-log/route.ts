import { listAuditEvents } from "@/lib/accounts/audit";
import { auditFilters } from "@/lib/accounts/audit-schemas";
import { withApiKey } from "@/lib/api/handler";
import { otherMethods } from "@/lib/api/methods";
import * as operations from "@/lib/api/operations/audit";
import { json } from "@/lib/api/responses";

// GET /v1/audit-log – the organization's changes, newest first, filtered by actor, action and target
export const GET = withApiKey(operations.listAuditEvents, async ({ ctx, query: { limit, offset, ...filters } }) => {
  const { data, total } = await listAuditEvents(ctx, auditFilters(filters), { limit, offset });
  return json({ data, total, limit, offset });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
