import { z } from "zod";

/**
 * A member's role in an organization, weakest first: each role may do everything the one before it
 * may. The table below is the one the site owners' guide (teams-and-roles), the OpenAPI description and the dashboard's help show.
 */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const roleSchema = z.enum(ROLES).meta({ id: "Role", description: "A member's role in an organization: viewer < member < admin < owner." });

/** What each role adds to the one before it, in the words the dashboard and the docs use. */
export const ROLE_GRANTS: Record<Role, string> = {
  viewer: "reads everything: sites, sitemaps, boosts, runs and their results, webhooks, keys, the audit log",
  member: "also runs boosts and sends warms",
  admin: "also manages sites, sitemaps, boosts, webhooks, deploy hooks and API keys",
  owner: "also manages members, invitations and roles, the organization's settings and its deletion",
};

/**
 * A sentence of everything `role` may do, said of that role alone (an invitation names one role, not
 * the table): each grant up to it, without the "also" that ties a grant to the role before.
 */
export function roleAbilities(role: Role): string {
  const grants = ROLES.slice(0, ROLES.indexOf(role) + 1).map((each) => ROLE_GRANTS[each].replace(/^also /, ""));
  const all = grants.length === 1 ? grants[0]! : `${grants.slice(0, -1).join("; ")}; and ${grants.at(-1)}`;
  return `${/^[aeiou]/.test(role) ? "An" : "A"} ${role} ${all}.`;
}

/** Whether `role` may do what needs `needed`. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** Why a member whose role does not reach `needed` is refused: the API's 403 and the dashboard's pages say the same. */
export function roleRefusalMessage(role: Role, needed: Role): string {
  return `Your role in this organization (${role}) does not allow this: it needs ${needed} or above. An owner can change your role.`;
}
