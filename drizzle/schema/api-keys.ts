import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, id } from "./columns";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** The first characters of the key, kept so owners can tell keys apart; not enough to use it. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key: the plaintext is shown once and never stored. */
    hash: text("hash").notNull(),
    scopes: text("scopes").array().notNull(),
    /** The sites the key is limited to; null: every site of the organization. */
    siteIds: integer("site_ids").array(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.hash), index("api_keys_account_idx").on(t.accountId)],
);
