import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

/**
 * The Ed25519 keys warming calls are signed with (HTTP Message Signatures, as Web Bot Auth
 * defines them). The public key is served in the key directory; the private key is kept encrypted
 * under PREHEAT_SECRETS_KEY. The operator rotates them: a retired key stays in the directory a while,
 * so that signatures made just before the rotation still verify.
 */
export const botSigningKeys = pgTable("bot_signing_keys", {
  id: id(),
  /** The JWK thumbprint (RFC 7638) that signatures name as `keyid`. */
  keyId: text("key_id").notNull().unique(),
  publicJwk: jsonb("public_jwk").$type<Record<string, string>>().notNull(),
  privateKeyEncrypted: text("private_key_encrypted").notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});
