import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { idempotencyKeys } from "@/drizzle/schema";
import type { Database } from "@/lib/db";
import { ConflictError, InvalidError } from "@/lib/core/errors";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
export const IDEMPOTENCY_KEEP_HOURS = 24;
/** A first request unanswered this long is taken to have died with its process: its key may be used again. */
const ABANDONED_AFTER_SECONDS = 300;
/** How long a second request with the key of one still being handled waits for its answer before a 409. */
const WAIT_FOR_FIRST_MS = 15_000;
const POLL_MS = 100;
/** The answer headers a replay repeats. */
const KEPT_HEADERS = ["content-type", "location"];

/** 1 to 255 visible ASCII characters: a UUID, or any token the client makes up. */
export function checkIdempotencyKey(key: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new InvalidError("Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say).", [{ field: "Idempotency-Key", message: "1 to 255 visible ASCII characters." }]);
  }
  return key;
}

function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, canonicalJson(v)]),
    );
  return value;
}

/** What "the same request" means: the operation, its path parameters and its body (JSON compared by value, not by spacing or key order). */
export function requestFingerprint(operationId: string, params: unknown, bodyText: string): string {
  let body: unknown = bodyText;
  try {
    body = bodyText.trim() ? canonicalJson(JSON.parse(bodyText)) : null;
  } catch {
    // Not JSON: compared as sent.
  }
  return createHash("sha256")
    .update(JSON.stringify([operationId, canonicalJson(params), body]))
    .digest("hex");
}

type Stored = typeof idempotencyKeys.$inferSelect;

/** Whose Idempotency-Key it is: the organization, and the API key (`key:{id}`) or signed-in user (`user:{id}`) that sent it. */
export type KeyHolder = { accountId: number; holder: string };

/** Claims the key for this request, or takes over one kept past 24 hours or abandoned; false when another request holds it. */
async function claim(db: Database, { accountId, holder }: KeyHolder, key: string, fingerprint: string): Promise<boolean> {
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ accountId, holder, key, fingerprint })
    .onConflictDoUpdate({
      target: [idempotencyKeys.accountId, idempotencyKeys.holder, idempotencyKeys.key],
      set: { fingerprint, responseStatus: null, responseBody: null, responseHeaders: null, createdAt: sql`now()` },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS})
        or (${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))`,
    })
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

function heldBy({ accountId, holder }: KeyHolder, key: string) {
  return and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.holder, holder), eq(idempotencyKeys.key, key));
}

async function stored(db: Database, holder: KeyHolder, key: string): Promise<Stored | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(heldBy(holder, key));
  return row;
}

function replay(row: Stored): Response {
  return new Response(row.responseBody, { status: row.responseStatus!, headers: { ...row.responseHeaders, [REPLAYED_HEADER]: "true" } });
}

/**
 * The answer as it is kept for replays: without the fields shown only once (a secret, a URL holding
 * one), so that the table never holds them in clear and a replay, which anyone holding the key and
 * the request could obtain for 24 hours, never shows them again.
 */
function withoutShownOnce(body: string, shownOnce: readonly string[]): string {
  if (shownOnce.length === 0) return body;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return body;
  const kept = Object.fromEntries(Object.entries(value).filter(([name]) => !shownOnce.includes(name)));
  return JSON.stringify(kept);
}

/**
 * Runs `handle` once per holder (an API key, a signed-in user) and key: a retry with the same
 * request within 24 hours gets the first answer again (`Idempotent-Replayed: true`), without the
 * fields `shownOnce`, and creates nothing; the same key with another request is refused (422
 * `idempotency_conflict`); a retry that arrives while the first is still being handled waits for its
 * answer (409 `idempotency_in_progress` after 15 s). Only successful answers are kept: after a
 * refusal or a failure the key may be sent again. The caller has run every check of the request
 * (authentication, scope, role, suspension) before; `beforeReplay` runs the ones that depend on what
 * the path names (a site-limited key, a site or boost gone since), so a stored answer is never shown
 * to a caller that would be refused the request itself.
 */
export async function runOnce(
  db: Database,
  holder: KeyHolder,
  key: string,
  fingerprint: string,
  handle: () => Promise<Response>,
  options: { shownOnce?: readonly string[]; beforeReplay?: () => Promise<void> } = {},
): Promise<Response> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  while (!(await claim(db, holder, key, fingerprint))) {
    const row = await stored(db, holder, key);
    if (!row) continue; // released between the two statements: claim again
    if (row.fingerprint !== fingerprint) {
      throw new InvalidError("This Idempotency-Key was already used with another request: use a new key for a new request.", undefined, "idempotency_conflict");
    }
    if (row.responseStatus !== null) {
      await options.beforeReplay?.();
      return replay(row);
    }
    if (Date.now() > deadline) throw new ConflictError("A request with this Idempotency-Key is still being handled: retry in a moment.", undefined, "idempotency_in_progress");
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const mine = and(heldBy(holder, key), isNull(idempotencyKeys.responseStatus));
  let response: Response;
  try {
    response = await handle();
  } catch (error) {
    await db.delete(idempotencyKeys).where(mine);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    await db.delete(idempotencyKeys).where(mine);
    return response;
  }
  const body = await response.text();
  const headers = Object.fromEntries(KEPT_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: withoutShownOnce(body, options.shownOnce ?? []), responseHeaders: headers })
    .where(mine);
  return new Response(body, { status: response.status, headers: response.headers });
}

/** Keys kept past 24 hours are never replayed; this removes them (the worker's daily sweep). */
export async function forgetOldIdempotencyKeys(db: Database): Promise<number> {
  const removed = await db.delete(idempotencyKeys).where(sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_KEEP_HOURS})`).returning({ key: idempotencyKeys.key });
  return removed.length;
}
