import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * Counters of rate-limiter-flexible's RateLimiterDrizzle (lib/auth/rate-limit.ts): one row per
 * budget and subject (an API key, an account, a client address, an e-mail address), shared by every
 * server so that a budget holds across them.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamp("expire", { withTimezone: true }),
});

/**
 * The first answer to a creating request sent with an `Idempotency-Key` (lib/api/idempotency.ts),
 * kept 24 hours so that a retry replays it instead of creating again. `responseStatus` is null while
 * the first request is still being handled.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /**
     * Whose key it is: `key:{id}` for an API key, `user:{id}` for a dashboard session. A replay is
     * another holder's never, so a key limited to some sites cannot replay another key's answer.
     */
    holder: text("holder").notNull().default(""),
    key: text("key").notNull(),
    /** SHA-256 of the method, the path and the body: the same key with another request is refused. */
    fingerprint: text("fingerprint").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.holder, t.key] }), index("idempotency_keys_created_at_idx").on(t.createdAt)],
);
