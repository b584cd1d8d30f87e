import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, timestamps } from "./columns";

/** Where an account wants its events sent, and how (Standard Webhooks, or a Slack incoming webhook). */
export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description"),
    format: text("format").$type<"standard" | "slack">().notNull().default("standard"),
    /**
     * The signing secret (`whsec_…`), shown once when the webhook is made. Kept as it is, unlike API
     * keys: every delivery is signed with it, so a hash would not do.
     */
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why delivery stopped on its own (consecutive failures); null when enabled, or disabled by its owner. */
    disabledReason: text("disabled_reason"),
    /** Failed delivery attempts since the last success: at PREHEAT_WEBHOOK_DISABLE_AFTER the webhook is disabled. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    ...timestamps,
  },
  (t) => [index("webhooks_account_idx").on(t.accountId)],
);

/**
 * One event for one webhook: what is sent (the same body and `webhook-id` on every attempt) and
 * where it stands. Unique per event, so an event signalled twice is sent once.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: id(),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    /** The event's identity (`run.completed:42`): the deduplication key, and the source of `webhook-id`. */
    eventKey: text("event_key").notNull(),
    payload: jsonb("payload").notNull(),
    /** pending → delivered | failed */
    status: text("status").$type<"pending" | "delivered" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("webhook_messages_event_key").on(t.webhookId, t.eventKey)],
);

/** Every attempt to deliver a message (or a test event): what the receiver answered, and how fast. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    messageId: integer("message_id").references(() => webhookMessages.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_deliveries_webhook_idx").on(t.webhookId, t.id)],
);
