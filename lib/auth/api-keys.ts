import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { apiKeys } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { InvalidError, NotFoundError } from "@/lib/errors";
import type { Scope } from "./scopes";

/** Recognisable in logs, secret scanners and support tickets. */
export const API_KEY_PREFIX = "phk_";
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** Throttles the last-used write so that busy keys do not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeyPrincipal = { keyId: number; accountId: number; scopes: Scope[]; name: string; prefix: string; expiresAt: Date | null };

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export type CreateApiKeyInput = { accountId: number; userId?: number | null; name: string; scopes: Scope[]; expiresAt?: Date | null };

/** Returns the plaintext key once; only its hash is stored. */
export async function createApiKey(db: Database, input: CreateApiKeyInput) {
  if (!input.scopes.length) throw new InvalidError("An API key needs at least one scope.");
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new InvalidError("The expiry date must be in the future.");
  const key = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId: input.accountId,
      createdByUserId: input.userId ?? null,
      name: input.name.trim() || "API key",
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      hash: hashApiKey(key),
      scopes: input.scopes,
      expiresAt: input.expiresAt ?? null,
    })
    .returning();
  return { key, apiKey: row! };
}

export async function listApiKeys(db: Database, accountId: number) {
  return db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.id));
}

/** Revokes a key; `accountId` limits it to one account (the dashboard), the operator CLI may omit it. */
export async function revokeApiKey(db: Database, id: number, accountId?: number) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), accountId === undefined ? undefined : eq(apiKeys.accountId, accountId)))
    .returning();
  if (!row) throw new NotFoundError(`API key ${id} not found.`);
  return row;
}

export function apiKeyState(key: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()) {
  if (key.revokedAt) return "revoked" as const;
  if (key.expiresAt && key.expiresAt <= now) return "expired" as const;
  return "active" as const;
}

/** The principal behind a bearer token, or undefined when it is unknown, revoked or expired. */
export async function authenticateApiKey(db: Database, token: string): Promise<ApiKeyPrincipal | undefined> {
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return undefined;
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.hash, hashApiKey(token)));
  if (!row || apiKeyState(row) !== "active") return undefined;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, row.id));
  }
  return { keyId: row.id, accountId: row.accountId, scopes: row.scopes as Scope[], name: row.name, prefix: row.prefix, expiresAt: row.expiresAt };
}
