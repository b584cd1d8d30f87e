import { auditEventSchema, auditLogQuery } from "@/lib/accounts/audit-schemas";
import { pageOf, paginationQuery } from "@/lib/core/pagination";
import { defineOperation } from "../operation";

export const listAuditEvents = defineOperation({
  operationId: "listAuditEvents",
  method: "get",
  path: "/v1/audit-log",
  tag: "Audit",
  summary: "List the audit log (every change, newest first)",
  description:
    "Every change of the organization's state through the API or the dashboard, newest first: who (`actor`: a member by e-mail, an API key by prefix, a deploy hook by id), what (`action`, e.g. `site.created`, `boost.updated`, `key.revoked`, `hook.triggered`, `member.invited`), on what (`target`: its type and id, always, and its name as it is now, or `deleted` once it no longer exists), when and from which client address. An update lists the names of the fields it supplied in `changes`, never their values: no secret (key, webhook secret, password, hook URL) is ever recorded. Only successful changes are recorded, and an idempotent replay is not recorded again. Reads are not recorded. A deploy hook's calls count on one entry per hook for an hour (`count`), so that its URL cannot grow the log without bound. Events are kept `PREHEAT_AUDIT_RETENTION_DAYS` days (365 by default), then deleted. Filters are exact: `actor` (an e-mail address, in any case, or a key prefix), `action` (one action, or a prefix such as `site.` or `site.*`), `target_type` and `target_id`.",
  scope: "audit:read",
  query: paginationQuery.extend(auditLogQuery.shape),
  status: 200,
  response: pageOf(auditEventSchema, "AuditEventPage"),
});
