import { integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, timestamps } from "./columns";

export const accounts = pgTable("accounts", {
  id: id(),
  name: text("name").notNull(),
  /** Calls per calendar month (UTC); null means the service default (PREHEAT_MONTHLY_CALL_QUOTA). */
  monthlyCallQuota: integer("monthly_call_quota"),
  ...timestamps,
});

export const users = pgTable(
  "users",
  {
    id: id(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Stored lower-cased so that sign-in and the CLI find the same user. */
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** Carried by every session cookie; a password change (or "sign out everywhere") bumps it, so every older session ends at once. */
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);
