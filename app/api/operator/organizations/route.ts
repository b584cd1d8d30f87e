import { listOrganizations } from "@/lib/accounts/operator";
import { organizationsQuery } from "@/lib/accounts/operator-schemas";
import { json } from "@/lib/api/responses";
import { otherOperatorMethods, withOperator } from "@/lib/api/session-handler";

// GET /api/operator/organizations?q=&limit=&offset= – every organization, newest first, with its plan, this month's calls, sites, members, last activity and state
export const GET = withOperator({ query: organizationsQuery }, async ({ db, query: { q, ...page } }) => json({ ...(await listOrganizations(db, { query: q }, page)), ...page }));

export const { POST, PUT, PATCH, DELETE } = otherOperatorMethods("GET");
