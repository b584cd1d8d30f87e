import type { webhooks } from "@/drizzle/schema";

/** A webhook as stored. */
export type WebhookRow = typeof webhooks.$inferSelect;

/** What a delivery carries: the event's type, when it happened, and its data. */
export type Envelope = { type: string; timestamp: string; data: unknown };
