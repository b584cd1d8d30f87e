import { z } from "zod";

export const SCOPES = ["sites:read", "sites:write", "boosts:read", "boosts:write", "runs:read", "webhooks:read", "webhooks:write", "audit:read"] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope allows, in a sentence: the OpenAPI document and the key form say the same. */
export const SCOPE_MEANINGS: Record<Scope, string> = {
  "sites:read": "List and read sites, their sitemaps, traffic sources, popularity table and field data.",
  "sites:write": "Register, validate, pace and delete sites; add, refresh and delete sitemaps; add, read, upload to and delete traffic sources.",
  "boosts:read": "List and read boosts, their estimates and the site's warm runs.",
  "boosts:write": "Create, update, trigger and delete boosts; queue on-demand warms.",
  "runs:read": "List and read runs and their results.",
  "webhooks:read": "List and read webhooks and their deliveries.",
  "webhooks:write": "Create, update, test and delete webhooks.",
  "audit:read": "Read the audit log: every change, by whom and from where.",
};

/** Starting points for a new key's scopes (issue 60, item 6): a key gets what its job needs, not everything by default. */
export const SCOPE_PRESETS: { label: string; scopes: readonly Scope[] }[] = [
  { label: "Read runs", scopes: ["sites:read", "boosts:read", "runs:read"] },
  { label: "Warm from CI", scopes: ["sites:read", "boosts:read", "boosts:write", "runs:read"] },
  { label: "Everything", scopes: SCOPES },
];

export const scopeSchema = z.enum(SCOPES).meta({ id: "Scope", description: "A permission carried by an API key." });

/** Parses `all` or a comma list, as the CLI and the dashboard accept it. */
export function parseScopeList(input: string): Scope[] {
  const names = input
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0] === "all") return [...SCOPES];
  const unknown = names.filter((name) => !(SCOPES as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`Unknown scope ${unknown.join(", ")}: use ${SCOPES.join(", ")} or all.`);
  if (!names.length) throw new Error(`Give at least one scope (${SCOPES.join(", ")}) or all.`);
  return [...new Set(names)] as Scope[];
}
