import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { id, timestamps } from "./columns";
import { runs } from "./runs";
import { sites } from "./sites";

/**
 * Where a system a site is edited in (a shop, a CMS, a host) sends its change events: the inbound
 * URL `/v1/receivers/{public_id}`, the secret its signature is checked with, and how its payloads
 * become the site's URLs.
 */
export const changeReceivers = pgTable(
  "change_receivers",
  {
    id: id(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** shopify, contentful, sanity, strapi, netlify or vercel. */
    kind: text("kind").notNull(),
    /** Random and url-safe: the inbound URL's last segment, which finds the receiver without a key. */
    publicId: text("public_id").notNull(),
    /**
     * The secret the system signs with (or sends), sealed with lib/secrets: it must be used again on
     * every delivery, so a hash would not do. Shown once, at creation and at rotation.
     */
    secret: text("secret").notNull(),
    /** Per topic, content type or model: the site paths a payload maps to (`/products/{handle}`). */
    urlTemplates: jsonb("url_templates").$type<Record<string, string[]>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex("change_receivers_public_id_key").on(t.publicId), index("change_receivers_site_idx").on(t.siteId)],
);

/**
 * What a receiver was sent and what came of it: queued, unmapped (and why), ignored (a topic or event
 * that changes no page), malformed or failed. The last 50 per receiver are kept, their payloads
 * without secrets, so that an owner can fix a template against what the system really sends.
 */
export const changeDeliveries = pgTable(
  "change_deliveries",
  {
    id: id(),
    receiverId: integer("receiver_id")
      .notNull()
      .references(() => changeReceivers.id, { onDelete: "cascade" }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    /** The topic, event or content type the delivery was about, as the system names it. */
    event: text("event"),
    /** The system's own id of the delivery (Shopify's `X-Shopify-Webhook-Id`): a repeat is not queued again. */
    eventId: text("event_id"),
    urls: jsonb("urls").$type<string[]>().notNull().default([]),
    payload: jsonb("payload"),
    runId: integer("run_id").references(() => runs.id, { onDelete: "set null" }),
  },
  (t) => [index("change_deliveries_receiver_idx").on(t.receiverId, t.id), uniqueIndex("change_deliveries_event_key").on(t.receiverId, t.eventId)],
);
