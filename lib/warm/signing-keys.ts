import { generateKeyPairSync } from "node:crypto";
import { desc, gt, isNull, or, sql } from "drizzle-orm";
import { directoryResponseHeaders, helpers, jwkToKeyID, MediaType, type Signer } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { decryptSecret, encryptSecret, secretsKeyConfigured } from "@/lib/secrets";
import { botSigningKeys } from "@/drizzle/schema";
import { setting } from "@/lib/config";
import type { Database } from "@/lib/db";
import { DomainError } from "@/lib/core/errors";
import { publicBaseUrl } from "@/lib/config/base-url";
import { KEY_DIRECTORY_PATH } from "./identify";

/**
 * The Ed25519 keys warming calls are signed with (Web Bot Auth): made on first use when the operator
 * turns PREHEAT_BOT_SIGNATURES on, rotated by the operator (`cli -- bot-keys rotate`), the private
 * half kept encrypted under PREHEAT_SECRETS_KEY.
 */

/**
 * A retired key stays in the directory this long: verifiers cache the directory (Cloudflare for
 * hours), so a signature made just before a rotation must still find its key there after it.
 */
export const RETIRED_KEY_LISTED_DAYS = 7;
/** How long a process signs with the key it loaded before asking the database again: a rotation is taken up within this. */
const SIGNER_TTL_MS = 60_000;
/** A lock of its own (pg_advisory_xact_lock) so that two processes starting together make one key, not two. */
const KEY_LOCK = 7_341_926;

export type SigningKeyRow = typeof botSigningKeys.$inferSelect;

/** Private keys are sealed by lib/secrets under PREHEAT_SECRETS_KEY, bound to this use. */
const PURPOSE = "preheat:bot-signing-key";

function requireSecretsKey(): void {
  if (!secretsKeyConfigured()) throw new DomainError("Bot signatures need PREHEAT_SECRETS_KEY (32 bytes, e.g. `openssl rand -hex 32`) to keep their private keys encrypted.");
}

const encrypt = (plain: string) => encryptSecret(plain, PURPOSE);
const decrypt = (sealed: string) => decryptSecret(sealed, PURPOSE);

export function botSignaturesEnabled(): boolean {
  return setting("PREHEAT_BOT_SIGNATURES");
}

/** Makes a key pair and keeps it; the caller holds KEY_LOCK. */
async function insertKey(db: Database): Promise<SigningKeyRow> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicJwk = publicKey.export({ format: "jwk" }) as Record<string, string>;
  const keyId = await jwkToKeyID(publicJwk as JsonWebKey, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
  const privateKeyEncrypted = encrypt(JSON.stringify(privateKey.export({ format: "jwk" })));
  const [row] = await db
    .insert(botSigningKeys)
    .values({ keyId, publicJwk: { ...publicJwk, kid: keyId }, privateKeyEncrypted })
    .returning();
  return row!;
}

const newestActive = (db: Database) => db.select().from(botSigningKeys).where(isNull(botSigningKeys.retiredAt)).orderBy(desc(botSigningKeys.id)).limit(1);

/** The key calls are signed with now (the newest one not retired), made when there is none. */
async function activeSigningKey(db: Database): Promise<SigningKeyRow> {
  requireSecretsKey(); // refused before anything is made
  const [found] = await newestActive(db);
  if (found) return found;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${KEY_LOCK})`);
    const [made] = await newestActive(tx); // by another process, while this one waited
    return made ?? insertKey(tx);
  });
}

/** Retires every key in use and makes the next one: calls are signed with it within a minute, everywhere. */
export async function rotateSigningKeys(db: Database): Promise<{ active: SigningKeyRow; retired: SigningKeyRow[] }> {
  requireSecretsKey();
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${KEY_LOCK})`);
    const retired = await tx.update(botSigningKeys).set({ retiredAt: new Date() }).where(isNull(botSigningKeys.retiredAt)).returning();
    return { active: await insertKey(tx), retired };
  });
  forgetBotSigner();
  return result;
}

/** Every key, newest first: the operator's list. */
export function listSigningKeys(db: Database): Promise<SigningKeyRow[]> {
  return db.select().from(botSigningKeys).orderBy(desc(botSigningKeys.id));
}

/** The keys the directory lists: those in use, and those retired less than RETIRED_KEY_LISTED_DAYS ago. */
export function listedSigningKeys(db: Database, now = new Date()): Promise<SigningKeyRow[]> {
  const since = new Date(now.getTime() - RETIRED_KEY_LISTED_DAYS * 86_400_000);
  return db
    .select()
    .from(botSigningKeys)
    .where(or(isNull(botSigningKeys.retiredAt), gt(botSigningKeys.retiredAt, since)))
    .orderBy(desc(botSigningKeys.id));
}

/** A key's private half, as the library's signer. */
function signerOf(row: SigningKeyRow): Promise<Signer> {
  return signerFromJWK(JSON.parse(decrypt(row.privateKeyEncrypted)) as JsonWebKey);
}

let cached: { signer: Signer | null; until: number } | undefined;
let reported: string | undefined;

/**
 * The signer of this process's warming calls, or null while signatures are off. Loaded once a
 * minute at most: a rotation reaches every worker within SIGNER_TTL_MS, and the retired key stays
 * listed far longer than that. When no signer can be had (signatures on without
 * PREHEAT_SECRETS_KEY, a key sealed under another key), calls go unsigned rather than not at all,
 * and the reason is logged once.
 */
export async function botSigner(db: Database): Promise<Signer | null> {
  if (!botSignaturesEnabled()) return null;
  if (cached && cached.until > Date.now()) return cached.signer;
  let signer: Signer | null = null;
  try {
    signer = await signerOf(await activeSigningKey(db));
    reported = undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (reason !== reported) console.error(`[warm] PREHEAT_BOT_SIGNATURES is on but calls cannot be signed, they go unsigned: ${reason}`);
    reported = reason;
  }
  cached = { signer, until: Date.now() + SIGNER_TTL_MS };
  return signer;
}

/** Forgets the loaded signer (tests, after a rotation in this process). */
export function forgetBotSigner(): void {
  cached = undefined;
}

/** Verifiers cache the directory this long; its signatures hold for an hour, well past that. */
const DIRECTORY_MAX_AGE_SECONDS = 300;
const DIRECTORY_SIGNATURE_MS = 3_600_000;

/**
 * The key directory (`/.well-known/http-message-signatures-directory`): a JWKS of the keys in use
 * and those retired within RETIRED_KEY_LISTED_DAYS, its response signed with each of them as the
 * directory draft asks (proof that whoever serves it holds the keys). Empty while signatures were
 * never turned on; unsigned when the private keys cannot be read (PREHEAT_SECRETS_KEY unset).
 */
export async function keyDirectory(db: Database): Promise<{ body: string; headers: Record<string, string> }> {
  const rows = await listedSigningKeys(db);
  const body = JSON.stringify({ keys: rows.map((row) => row.publicJwk) });
  const headers: Record<string, string> = { "content-type": MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY, "cache-control": `public, max-age=${DIRECTORY_MAX_AGE_SECONDS}` };
  if (!rows.length || !secretsKeyConfigured()) return { body, headers };
  const signers = await Promise.all(rows.map(signerOf));
  const created = new Date();
  // The signed component is the authority the directory was asked at: Preheat's public address, whatever proxy is in front.
  const request = { method: "GET", url: `${publicBaseUrl()}${KEY_DIRECTORY_PATH}`, headers: {} };
  const signed = await directoryResponseHeaders({ request, response: { status: 200, headers } }, signers, { created, expires: new Date(created.getTime() + DIRECTORY_SIGNATURE_MS) });
  return { body, headers: { ...headers, signature: signed.Signature, "signature-input": signed["Signature-Input"] } };
}
