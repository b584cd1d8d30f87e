import type { z } from "zod";
import type { createdWebhookSchema, webhookDeliverySchema, webhookSchema } from "@/lib/webhooks/schemas";

/** The webhook API's answer shapes, inferred from the schemas that validate and document them. */
export type Webhook = z.output<typeof webhookSchema>;
/** The dashboard sends no Idempotency-Key: its answer is never a replay, so it always holds the secret. */
export type CreatedWebhook = z.output<typeof createdWebhookSchema> & { secret: string };
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;

/** The list's key without its page: invalidating it refreshes every page. */
export const webhooksQueryKey = ["webhooks", "list"] as const;
export const webhookQueryKey = (webhookId: number) => ["webhooks", webhookId] as const;
export const deliveriesQueryKey = (webhookId: number) => ["webhooks", webhookId, "deliveries"] as const;
