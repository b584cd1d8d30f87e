import { z } from "zod";
import { idNumber, idString } from "@/lib/core/primitives";
import { iso } from "@/lib/core/primitives";
import { apiKeyState } from "./api-keys";
import { scopeSchema } from "./scopes";

/** What the dashboard sends to create a key: the same rules as the CLI's keys create. */
export const createApiKeyBody = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(100, "At most 100 characters."),
  scopes: z.array(scopeSchema).min(1, "Choose at least one scope."),
  expires_at: z.iso
    .datetime({ offset: true, message: "An ISO 8601 date and time." })
    .nullable()
    .optional()
    .refine((value) => !value || Date.parse(value) > Date.now(), "The expiry date must be in the future."),
  /** The sites the key is limited to (each one of the organization's); null or absent: every site. */
  site_ids: z.array(idNumber).min(1, "Choose at least one site, or all sites.").max(1000, "At most 1000 sites.").nullable().optional(),
});

export const keyParams = z.object({ keyId: idString });

type ApiKeyRow = {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  siteIds: number[] | null;
  /** The creator's e-mail address, when the query joined it. */
  createdBy?: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
};

/** A key as its owner may see it: never the key, never its hash. */
export function toApiKeyView(key: ApiKeyRow) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    /** null: every site of the organization. */
    site_ids: key.siteIds,
    created_by: key.createdBy ?? null,
    state: apiKeyState(key),
    expires_at: iso(key.expiresAt),
    revoked_at: iso(key.revokedAt),
    last_used_at: iso(key.lastUsedAt),
    created_at: key.createdAt.toISOString(),
  };
}

export type ApiKeyView = ReturnType<typeof toApiKeyView>;
