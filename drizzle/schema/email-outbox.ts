import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id } from "./columns";

/**
 * Every e-mail the service sends, written before it is sent: the outbox the dashboard shows in the
 * embedded default, and the record that makes a report go out once (dedupe_key is unique).
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: id(),
    accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    /** e.g. `run-report:42`: the same report is never queued twice. */
    dedupeKey: text("dedupe_key").notNull(),
    template: text("template").notNull(),
    toAddress: text("to_address").notNull(),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    props: jsonb("props").$type<Record<string, unknown>>().notNull(),
    /** `outbox` (kept here, no transport configured) | `pending` → `sent` | `failed` */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    providerId: text("provider_id"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // Each user reads the e-mails to their own address only (lib/email/outbox.ts), newest first.
  (t) => [uniqueIndex("email_outbox_dedupe_key").on(t.dedupeKey), index("email_outbox_account_idx").on(t.accountId, t.id), index("email_outbox_to_idx").on(t.toAddress, t.id)],
);
