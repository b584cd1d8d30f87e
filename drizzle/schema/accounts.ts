import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Role } from "@/lib/core/roles";
import { createdAt, id, timestamps } from "./columns";
import { plans } from "./plans";

/** An organization (called an account before teams; the table keeps its name, the API says both). */
export const accounts = pgTable("accounts", {
  id: id(),
  name: text("name").notNull(),
  /** Its owners ask every member to sign in with a second factor. */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  /** Calls per calendar month (UTC); null means the service default (PREHEAT_MONTHLY_CALL_QUOTA). */
  monthlyCallQuota: integer("monthly_call_quota"),
  /** The operator's plan for it; null: the service's configuration (no plan). */
  planId: integer("plan_id").references(() => plans.id, { onDelete: "restrict" }),
  /** Suspended by the operator since then: its keys answer 403, nothing of it warms. */
  suspendedAt: timestamp("suspended_at", { withTimezone: true }),
  /** Why, as its members read it. */
  suspensionReason: text("suspension_reason"),
  /** The operator's choice with the suspension: its owners and admins may not create another organization meanwhile. */
  suspensionBlocksNewOrganizations: boolean("suspension_blocks_new_organizations").notNull().default(false),
  ...timestamps,
});

export const users = pgTable(
  "users",
  {
    id: id(),
    /** The organization a new session opens in (the last one the user switched to); null when the user belongs to none. */
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "set null" }),
    /** Stored lower-cased so that sign-in and the CLI find the same user. */
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** Unused since sessions are rows (user_sessions); kept so that an older server reading this database still starts. */
    sessionVersion: integer("session_version").notNull().default(0),
    /** The TOTP secret, sealed under PREHEAT_SECRETS_KEY; set while two-factor sign-in is being enabled or once it is. */
    totpSecret: text("totp_secret"),
    /** Two-factor sign-in is on since then (the first code was proven). */
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The 30-second step of the last code accepted: a code is never accepted twice. */
    totpLastStep: integer("totp_last_step"),
    /** SHA-256 of each unused recovery code; one is spent per use. */
    recoveryCodeHashes: text("recovery_code_hashes").array(),
    /** May open the operator console since then (granted by the operator CLI only: `users grant-operator`). */
    operatorSince: timestamp("operator_since", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/** Who belongs to which organization, with which role. */
export const memberships = pgTable(
  "memberships",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<Role>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

/**
 * One row per signed-in browser: the session cookie carries its id, and every request looks it up,
 * so that deleting the row (revoke, sign out everywhere, a password change, leaving the organization)
 * ends the session at once on every server.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    /** Random, 32 bytes in base64url; only inside the signed and encrypted cookie. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The organization this session works in; switching changes it. Null: the user belongs to none. */
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "set null" }),
    /**
     * Set when an owner removed the member from the organization this session worked in: the session
     * is ended, and its next page says so (with the organization's name then) instead of a bare sign-in.
     */
    removedFrom: text("removed_from"),
    userAgent: text("user_agent"),
    clientAddress: text("client_address"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId)],
);

/** An invitation to join an organization with a role, sent by e-mail; only the token's hash is stored. */
export const invitations = pgTable(
  "invitations",
  {
    id: id(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").$type<Role>().notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedByUserId: integer("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    sendCount: integer("send_count").notNull().default(1),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invitations_token_key").on(t.tokenHash), index("invitations_account_idx").on(t.accountId)],
);

/** A change of e-mail address waiting for the new address to be proven (its link); only the token's hash is stored. */
export const emailChanges = pgTable("email_changes", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  newEmail: text("new_email").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});
