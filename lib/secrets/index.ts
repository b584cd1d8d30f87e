import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { setting } from "@/lib/config";

/**
 * Secrets Preheat must send again later (a request profile's Basic auth password, the bot's signing
 * keys) are kept encrypted at rest with AES-256-GCM under PREHEAT_SECRETS_KEY: a copy of the
 * database, a backup or a log of its rows gives nothing away. Hashing would not do: they are sent.
 *
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The version names the scheme, so
 * that another one can come beside it; GCM's tag makes a changed or foreign value fail to open.
 */
const VERSION = "v1";
const IV_BYTES = 12;

/** Why a secret cannot be stored on this server: the sentence a 422 gives. */
export const NO_SECRETS_KEY = "cannot be stored: this server has no PREHEAT_SECRETS_KEY to encrypt it with (ask its operator to set one)";

export class SecretsError extends Error {}

export function secretsKeyConfigured(): boolean {
  return setting("PREHEAT_SECRETS_KEY") !== undefined;
}

function key(): Buffer {
  const value = setting("PREHEAT_SECRETS_KEY");
  if (!value) throw new SecretsError("this server has no PREHEAT_SECRETS_KEY (ask its operator to set one)");
  return value;
}

/** `purpose` is bound in as associated data: a value sealed for one use does not open for another. */
export function encryptSecret(plain: string, purpose?: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  if (purpose) cipher.setAAD(Buffer.from(purpose));
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), sealed.toString("base64url")].join(".");
}

/** The plain text of a sealed secret; throws SecretsError when it was sealed under another key, or altered. */
export function decryptSecret(sealed: string, purpose?: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new SecretsError("not a sealed secret");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    if (purpose) decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch (error) {
    if (error instanceof SecretsError) throw error;
    throw new SecretsError("the secret cannot be opened with the current PREHEAT_SECRETS_KEY (the key changed, or the value was altered)");
  }
}
