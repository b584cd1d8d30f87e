import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { accounts, apiKeys, sites, users } from "@/drizzle/schema";
import { type Database, ownedByThisProcess } from "@/lib/db";
import { oncePerDatabase } from "@/lib/db/per-database";
import { encodedPlaceholder, encodedValue, preparedOnce } from "@/lib/db/prepared";
import { InvalidError, NotFoundError } from "@/lib/core/errors";
import type { Role } from "@/lib/core/roles";
import type { Scope } from "./scopes";
import { hashToken } from "./token-hash";

/** Recognisable in logs, secret scanners and support tickets. */
const API_KEY_PREFIX = "phk_";
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** Throttles the last-used write so that busy keys do not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who a `/v1` request acts as: an API key, or a signed-in member through the dashboard (`keyId` 0,
 * every scope, limited by `user.role` instead). `siteIds`: the only sites a site-limited key sees.
 */
export type ApiKeyPrincipal = {
  keyId: number;
  accountId: number;
  scopes: Scope[];
  name: string;
  prefix: string;
  expiresAt: Date | null;
  siteIds: number[] | null;
  user?: { userId: number; email: string; role: Role; mustEnableTwoFactor: boolean };
  /** The organization is suspended by the operator (with the reason given): every request is refused. */
  suspension?: { reason: string | null } | null;
};

/** `siteIds`: the sites of the organization the key is limited to; null or absent, every site. */
export type CreateApiKeyInput = { accountId: number; userId?: number | null; name: string; scopes: Scope[]; expiresAt?: Date | null; siteIds?: number[] | null };

/** The sites a new key is limited to, each one of the organization's; null for every site. */
async function keySites(db: Database, accountId: number, siteIds: number[] | null | undefined): Promise<number[] | null> {
  if (siteIds == null) return null;
  const invalid = (message: string) => new InvalidError(`site_ids: ${message}.`, [{ field: "site_ids", message }]);
  if (!siteIds.length) throw invalid("choose at least one site, or none for every site");
  const wanted = [...new Set(siteIds)].sort((a, b) => a - b);
  const own = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.accountId, accountId), inArray(sites.id, wanted)));
  const known = new Set(own.map((site) => site.id));
  // Another organization's site is unknown here, exactly like one that does not exist.
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length) throw invalid(`no site ${missing.join(", ")} in this organization`);
  return wanted;
}

/** Returns the plaintext key once; only its hash is stored. */
export async function createApiKey(db: Database, input: CreateApiKeyInput) {
  if (!input.scopes.length) throw new InvalidError("An API key needs at least one scope.");
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new InvalidError("The expiry date must be in the future.");
  const siteIds = await keySites(db, input.accountId, input.siteIds);
  const key = API_KEY_PREFIX + randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId: input.accountId,
      createdByUserId: input.userId ?? null,
      name: input.name.trim() || "API key",
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      hash: hashToken(key),
      scopes: input.scopes,
      siteIds,
      expiresAt: input.expiresAt ?? null,
    })
    .returning();
  return { key, apiKey: row! };
}

/** The organization's keys, each with the e-mail address of the member who created it (null: the operator CLI, or a creator since deleted). */
export async function listApiKeys(db: Database, accountId: number) {
  const rows = await db
    .select({ key: apiKeys, createdBy: users.email })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.id));
  return rows.map(({ key, createdBy }) => ({ ...key, createdBy }));
}

/** An organization was suspended or resumed, or a member's keys were revoked with them: every key remembered is read again on its next request. */
export function forgetRememberedKeys(db: Database): void {
  const cache = cachedKeys(db);
  if (!cache) return;
  cache.revocations++;
  cache.keys.clear();
}

/** Revokes a key; `accountId` limits it to one account (the dashboard), the operator CLI may omit it. */
export async function revokeApiKey(db: Database, id: number, accountId?: number) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), accountId === undefined ? undefined : eq(apiKeys.accountId, accountId)))
    .returning();
  if (!row) throw new NotFoundError(`API key ${id} not found.`);
  const cache = cachedKeys(db);
  if (cache) {
    cache.revocations++;
    cache.keys.delete(row.hash);
  }
  const [creator] = row.createdByUserId ? await db.select({ email: users.email }).from(users).where(eq(users.id, row.createdByUserId)) : [];
  return { ...row, createdBy: creator?.email ?? null };
}

/** The working keys (neither revoked nor expired) that `userId` created in the organization. */
function workingKeysCreatedBy(accountId: number, userId: number) {
  return and(eq(apiKeys.accountId, accountId), eq(apiKeys.createdByUserId, userId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date())));
}

/** The keys a member created in the organization that still work: what their removal revokes unless an owner keeps them. */
export async function keysCreatedBy(db: Database, accountId: number, userId: number): Promise<{ id: number; prefix: string }[]> {
  return db.select({ id: apiKeys.id, prefix: apiKeys.prefix }).from(apiKeys).where(workingKeysCreatedBy(accountId, userId)).orderBy(apiKeys.id);
}

/**
 * Revokes every key a member created in the organization that still works (their removal), in the
 * caller's transaction; answers those revoked. The keys this process remembers are the database's,
 * not the transaction's: once it commits, the caller calls forgetRememberedKeys.
 */
export async function revokeKeysCreatedBy(tx: Database, accountId: number, userId: number): Promise<{ id: number; prefix: string }[]> {
  const revoked = await tx.update(apiKeys).set({ revokedAt: new Date() }).where(workingKeysCreatedBy(accountId, userId)).returning({ id: apiKeys.id, prefix: apiKeys.prefix });
  return revoked.sort((a, b) => a.id - b.id);
}

export function apiKeyState(key: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()) {
  if (key.revokedAt) return "revoked" as const;
  if (key.expiresAt && key.expiresAt <= now) return "expired" as const;
  return "active" as const;
}

/** A key with its organization's suspension, read together. */
type ApiKeyRow = typeof apiKeys.$inferSelect & { suspendedAt: Date | null; suspensionReason: string | null };
/** `revocations` counts revocations (and suspensions), so that a lookup that raced one does not remember what it read before it. */
type KeyCache = { keys: Map<string, ApiKeyRow>; revocations: number };
/** Keys remembered per embedded database; past this many the memory starts afresh. */
const CACHED_KEYS_MAX = 10_000;

/**
 * The active keys already seen, by hash, for a database only this process writes (the embedded
 * one: the dashboard, the API and the operator CLI all revoke through this process, which forgets
 * the key at once). A request then costs no key lookup. Never for a PostgreSQL server, which other
 * servers write: a key revoked there must answer 401 here at once.
 */
function cachedKeys(db: Database): KeyCache | undefined {
  if (!ownedByThisProcess(db)) return undefined;
  const cache = oncePerDatabase("apiKeys", db, (): KeyCache => ({ keys: new Map(), revocations: 0 }));
  if (cache.keys.size > CACHED_KEYS_MAX) cache.keys.clear();
  return cache;
}

// Every API request on a PostgreSQL server (and a key's first on the embedded database) looks its key up: built once.
const keyByHash = preparedOnce((db) =>
  db
    .select({ key: apiKeys, suspendedAt: accounts.suspendedAt, suspensionReason: accounts.suspensionReason })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.hash, sql.placeholder("hash")))
    .prepare("api_key_by_hash"),
);
const keyUsed = preparedOnce((db) =>
  db
    .update(apiKeys)
    .set({ lastUsedAt: encodedPlaceholder("usedAt", apiKeys.lastUsedAt) })
    .where(eq(apiKeys.id, sql.placeholder("keyId")))
    .prepare("api_key_used"),
);

/** The principal behind a bearer token, or undefined when it is unknown, revoked or expired. */
export async function authenticateApiKey(db: Database, token: string): Promise<ApiKeyPrincipal | undefined> {
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return undefined;
  const hash = hashToken(token);
  const cache = cachedKeys(db);
  let row = cache?.keys.get(hash);
  if (!row) {
    const revocations = cache?.revocations;
    const [found] = await keyByHash(db).execute({ hash });
    row = found && { ...found.key, suspendedAt: found.suspendedAt, suspensionReason: found.suspensionReason };
    if (cache && row && apiKeyState(row) === "active" && cache.revocations === revocations) cache.keys.set(hash, row);
  }
  if (!row || apiKeyState(row) !== "active") return undefined;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    row.lastUsedAt = new Date(now);
    await keyUsed(db).execute({ usedAt: encodedValue(apiKeys.lastUsedAt, row.lastUsedAt), keyId: row.id });
  }
  return {
    keyId: row.id,
    accountId: row.accountId,
    scopes: row.scopes as Scope[],
    name: row.name,
    prefix: row.prefix,
    expiresAt: row.expiresAt,
    siteIds: row.siteIds,
    suspension: row.suspendedAt ? { reason: row.suspensionReason } : null,
  };
}
