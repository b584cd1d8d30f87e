import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

export const WEBHOOK_EVENTS = ["run.completed", "run.failed", "run.paused", "sitemap.processed", "sitemap.failed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent by POST /v1/webhooks/{webhookId}/test only; no webhook subscribes to it. */
export const TEST_EVENT = "webhook.test";

export const WEBHOOK_FORMATS = ["standard", "slack"] as const;

const webhookEvent = z.enum(WEBHOOK_EVENTS).meta({
  id: "WebhookEvent",
  description:
    "`run.completed` (a run ended `done`), `run.failed`, `run.paused` (auto-paused), each with the run as GET /v1/runs/{runId} returns it; `sitemap.processed` and `sitemap.failed` (a read ended in `error`), each with the sitemap as GET /v1/sites/{siteId}/sitemaps/{sitemapId} returns it.",
});

const webhookUrl = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "must be an absolute http(s) URL")
  .meta({ description: "Where deliveries are POSTed. Like every outbound request, it must resolve to a public Internet address.", example: "https://hooks.example.com/preheat" });

const events = z
  .array(webhookEvent)
  .min(1, "give at least one event")
  .transform((list) => [...new Set(list)]);

const description = z.string().trim().max(500, "must be at most 500 characters").nullable();

const format = z.enum(WEBHOOK_FORMATS).meta({
  description:
    "`standard` (default): a JSON body `{type, timestamp, data}` signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`). `slack`: `url` is a Slack incoming-webhook URL, and each event is posted as a short message with a link to the dashboard.",
});

export const createWebhookBody = z
  .object({ url: webhookUrl, events, description: description.optional(), format: format.default("standard") })

  .meta({ id: "CreateWebhookRequest" });

export const updateWebhookBody = z
  .object({
    url: webhookUrl.optional(),
    events: events.optional(),
    description: description.optional(),
    format: format.optional(),
    enabled: z.boolean().optional().meta({ description: "`true` enables a webhook again (its failure count starts afresh); `false` stops its deliveries." }),
  })

  .meta({ id: "UpdateWebhookRequest" });

export const webhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(webhookEvent),
    description: z.string().nullable(),
    format: z.enum(WEBHOOK_FORMATS),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().meta({ description: "Why Preheat disabled it (consecutive failed deliveries); null otherwise." }),
    consecutive_failures: z.number().int().meta({ description: "Failed delivery attempts since the last success." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Webhook" });

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z.string().optional().meta({
      description:
        "The signing secret (`whsec_…`), shown only in this answer: verify each delivery's `webhook-signature` with it. Absent from an idempotent replay (`Idempotent-Replayed: true`): it is never shown again.",
    }),
  })
  .meta({ id: "CreatedWebhook" });

export const webhookDeliverySchema = z
  .object({
    id: z.number().int(),
    message_id: z.string().nullable().meta({ description: "The event's `webhook-id` (the same on every attempt); null for a test delivery." }),
    event: z.string().meta({ description: "The event type, or `webhook.test`." }),
    attempt: z.number().int().meta({ description: "1 for the first attempt, then 2, 3, … for the retries." }),
    status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when no answer came (timeout, refused address, network error)." }),
    duration_ms: z.number().int(),
    error: z.string().nullable().meta({ description: "Why the attempt failed; null when the receiver answered 2xx." }),
    created_at: timestamp,
  })
  .meta({ id: "WebhookDelivery" });

export type CreateWebhookInput = z.output<typeof createWebhookBody>;
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;
export type WebhookPayload = z.infer<typeof webhookSchema>;
