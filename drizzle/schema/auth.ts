import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * One-time sign-in links (next-auth's e-mail provider). next-auth stores the token hashed with the
 * session secret, so a leaked row cannot be turned into a link.
 */
export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/**
 * Secrets the service makes for itself on first start (the session-signing key), shared by every
 * process on the same database so that a session signed by one server is read by the others.
 */
export const serviceSecrets = pgTable("service_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/**
 * Sign-ups waiting for their address to be proven. No account exists until the link e-mailed to the
 * address is followed, so a sign-up never touches a user, and nobody can hold an address they do
 * not read. Only the token's hash is stored, like every other secret.
 */
export const signUpRequests = pgTable("sign_up_requests", {
  tokenHash: text("token_hash").primaryKey(),
  email: text("email").notNull(),
  name: text("name"),
  /** Unused since sign-up takes the address alone (the password is chosen on the confirmation page); kept for links already sent. */
  passwordHash: text("password_hash"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});
