import { bigint, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt } from "./columns";

/**
 * Every change of an organization's state, by whom, on what, from where. Written once, and never
 * updated but for `count`; rows older than PREHEAT_AUDIT_RETENTION_DAYS are deleted. Never holds a secret: changes
 * are field names, and a key is named by its prefix.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** `user`, `key`, `hook` (a deploy hook's token) or `system`. */
    actorType: text("actor_type").notNull(),
    actorUserId: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The user's e-mail address, the key's prefix, or the hook's id, as it was at the time. */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** The fields an update supplied, by name. */
    changes: jsonb("changes").$type<string[]>(),
    clientAddress: text("client_address"),
    /** How many times it happened: a deploy hook's calls within an hour of the entry's first count here (lib/accounts/audit.ts). */
    count: integer("count").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_account_idx").on(t.accountId, t.id),
    index("audit_events_created_idx").on(t.createdAt),
    // The entry a repeated hook call counts on is found by its target, not by reading the organization's whole log backwards.
    index("audit_events_target_idx").on(t.accountId, t.targetType, t.targetId, t.id),
  ],
);
