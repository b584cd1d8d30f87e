import { createPrivateKey, type KeyObject } from "node:crypto";
import { isObject } from "./http";

/** A Google service account's key, as its JSON key file gives it. */
export type ServiceAccountKey = { clientEmail: string; privateKey: KeyObject; privateKeyId?: string };

type Parsed = { ok: true; key: ServiceAccountKey } | { ok: false; message: string };

/**
 * The key file's text read as Google writes it (`type`, `client_email`, `private_key`, …). A message
 * never quotes the text: it is a secret (which is also why JSON.parse's own message, which quotes
 * the text, is not shown).
 */
export function readServiceAccountKey(text: string): Parsed {
  if (!text.trim()) return { ok: false, message: "The key file is empty." };
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    return { ok: false, message: "This is not JSON: give the whole JSON key file that Google Cloud downloads (IAM & Admin › Service accounts › Keys › Add key › JSON)." };
  }
  if (!isObject(file)) return { ok: false, message: "This is JSON, but not a key file (an object with type, client_email and private_key)." };
  if (file.type !== "service_account") {
    const type = typeof file.type === "string" && /^[\w-]{1,40}$/.test(file.type) ? ` is "${file.type}"` : " is missing";
    return { ok: false, message: `Its type${type}, not "service_account": give the JSON key of a service account, not an OAuth client's file or a user's credentials.` };
  }
  const clientEmail = typeof file.client_email === "string" ? file.client_email.trim() : "";
  if (!/^[^\s@]+@[^\s@]+$/.test(clientEmail)) return { ok: false, message: "It has no client_email (the service account's address)." };
  if (typeof file.private_key !== "string" || !file.private_key.trim()) {
    return { ok: false, message: "It has no private_key: Google puts it only in the file downloaded when the key is created; create a new key." };
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: file.private_key, format: "pem" });
  } catch {
    return { ok: false, message: "Its private_key is not a PEM private key: the file may have been edited; download a new key." };
  }
  if (privateKey.asymmetricKeyType !== "rsa") return { ok: false, message: "Its private_key is not an RSA key, as Google's service-account keys are." };
  const privateKeyId = typeof file.private_key_id === "string" && /^[\w-]{1,100}$/.test(file.private_key_id) ? file.private_key_id : undefined;
  return { ok: true, key: { clientEmail, privateKey, privateKeyId } };
}

/** Checks a service-account key file's text when a source is created: its client_email, or a message saying what is wrong. */
export function parseServiceAccountKey(text: string): { ok: true; clientEmail: string } | { ok: false; message: string } {
  const parsed = readServiceAccountKey(text);
  return parsed.ok ? { ok: true, clientEmail: parsed.key.clientEmail } : parsed;
}
