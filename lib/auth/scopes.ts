import { z } from "zod";

export const SCOPES = ["sites:read", "sites:write", "boosts:read", "boosts:write", "runs:read", "webhooks:read", "webhooks:write", "audit:read"] as const;
export type Scope = (typeof SCOPES)[number];

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
