import { z } from "zod";
import { idString } from "@/lib/core/primitives";
import { iso } from "@/lib/core/primitives";
import { apiKeyState } from "./api-keys";

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
