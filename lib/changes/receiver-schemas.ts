import { z } from "zod";
import { timestamp } from "@/lib/core/primitives";

/** The systems a receiver understands: each signs (or authenticates) its deliveries its own way. */
const RECEIVER_KINDS = ["shopify", "contentful", "sanity", "strapi", "netlify", "vercel"] as const;
export type ReceiverKind = (typeof RECEIVER_KINDS)[number];

/** What a delivery came to. */
const DELIVERY_OUTCOMES = ["queued", "unmapped", "ignored", "malformed", "failed"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** How many deliveries each receiver keeps, newest first. */
export const KEPT_DELIVERIES = 50;
const MAX_TEMPLATE_KEYS = 50;
const MAX_TEMPLATES_PER_KEY = 10;

const receiverKind = z.enum(RECEIVER_KINDS).meta({
  id: "ChangeReceiverKind",
  description:
    "The system that sends the changes: `shopify` (products, collections and pages topics), `contentful`, `sanity`, `strapi` (entries published, updated or unpublished), or the deploy notifications of `netlify` and `vercel` (`deployment.succeeded`), which warm what the site's sitemaps say changed instead of mapping a payload to URLs.",
});

const template = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(500, "must be at most 500 characters")
  .refine((value) => value.startsWith("/") && !value.startsWith("//"), "must be a path on the site, starting with a single `/`")
  .refine((value) => !/\{\s*\}/.test(value), "has an empty placeholder `{}`")
  .refine((value) => (value.match(/\{/g)?.length ?? 0) === (value.match(/\}/g)?.length ?? 0), "has an unclosed placeholder");

const urlTemplatesSchema = z
  .record(
    z.string().trim().min(1, "a key must not be empty").max(200, "a key must be at most 200 characters"),
    z.array(template).min(1, "give at least one template").max(MAX_TEMPLATES_PER_KEY, `must hold at most ${MAX_TEMPLATES_PER_KEY} templates`),
  )
  .refine((record) => Object.keys(record).length <= MAX_TEMPLATE_KEYS, `must have at most ${MAX_TEMPLATE_KEYS} keys`)
  .meta({
    id: "ChangeUrlTemplates",
    description:
      "Per topic resource (Shopify: `products`, `collections`, `pages`), content type (Contentful: `sys.contentType.sys.id`), document type (Sanity: `_type`) or model (Strapi: `model`), the paths of the site a payload maps to; `*` applies to any other. A placeholder `{a.b.c}` is a dotted path into the JSON body as the system sends it (`/products/{handle}`, `/blog/{fields.slug.en-US}`, `/{slug.current}`, `/articles/{entry.slug}`); a template whose field is missing or empty does not match, and the delivery records why. Rendered paths are joined with the site's origin (`https://{domain}`); one that leaves the site's domain does not match. Shopify receivers start with `/products/{handle}`, `/collections/{handle}` and `/pages/{handle}`; Netlify and Vercel receivers take none.",
    example: { blogPost: ["/blog/{fields.slug.en-US}"] },
  });

export type UrlTemplates = z.output<typeof urlTemplatesSchema>;

const ownSecret = z
  .string()
  .min(16, "must be at least 16 characters")
  .max(200, "must be at most 200 characters")
  .refine((value) => /^[\x21-\x7e]+$/.test(value), "must be printable ASCII without spaces")
  .meta({
    description:
      "The signing secret the system made itself, when it makes one: Shopify's webhook signing key (Settings → Notifications → Webhooks), Vercel's webhook secret, or Contentful's request-verification signing secret (64 characters). Without it, Preheat makes one (64 hexadecimal characters) to paste into the system.",
  });

export const createReceiverBody = z
  .object({
    kind: receiverKind,
    url_templates: urlTemplatesSchema.optional(),
    secret: ownSecret.optional(),
  })
  .meta({ id: "CreateChangeReceiverRequest" });

export const updateReceiverBody = z
  .object({
    url_templates: urlTemplatesSchema.optional().meta({ description: "Replaces every template of the receiver." }),
    secret: ownSecret.optional(),
  })
  .meta({ id: "UpdateChangeReceiverRequest" });

export const changeReceiverSchema = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    kind: receiverKind,
    url: z.string().meta({ description: "The address to paste into the system: `…/v1/receivers/{public_id}`. It holds no secret; deliveries are checked by their signature." }),
    url_templates: urlTemplatesSchema,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "ChangeReceiver" });

export const createdReceiverSchema = changeReceiverSchema
  .extend({
    secret: z.string().optional().meta({
      description:
        "The secret to paste into the system beside `url` (see /docs/site-owners/change-receivers for where), shown only in this answer: afterwards only a rotation shows a new one. Absent from an idempotent replay (`Idempotent-Replayed: true`).",
    }),
  })
  .meta({ id: "CreatedChangeReceiver" });

const changeDeliverySchema = z
  .object({
    id: z.number().int(),
    received_at: timestamp,
    outcome: z.enum(DELIVERY_OUTCOMES).meta({
      description:
        "`queued` (its URLs were queued for a warm, `run_id`), `unmapped` (no template gave a URL: `reason` says why), `ignored` (a topic or event that changes no page), `malformed` (signed, but not JSON), `failed` (the warm was refused: `reason`).",
    }),
    reason: z.string().nullable(),
    event: z.string().nullable().meta({ description: "The topic, event or content type, as the system names it." }),
    urls: z.array(z.string()),
    payload: z.unknown().meta({ description: "The JSON body received, with secret-looking fields replaced by `[redacted]`; null when malformed or over 64 KiB." }),
    run_id: z.number().int().nullable(),
  })
  .meta({ id: "ChangeDelivery" });

export const changeDeliveryListSchema = z
  .object({ data: z.array(changeDeliverySchema).meta({ description: `The last ${KEPT_DELIVERIES} deliveries, newest first.` }) })
  .meta({ id: "ChangeDeliveryList" });

export const receivedChangeSchema = z
  .object({
    delivery_id: z.number().int().meta({ description: "The delivery as `GET …/change-receivers/{receiverId}/deliveries` lists it." }),
    queued: z.boolean().meta({ description: "`true`: URLs were queued; `false`: nothing was (`reason`)." }),
    reason: z.string().optional().meta({ description: "Why nothing was queued: an ignored topic, no template matching, a repeat of a delivery already received." }),
    run_id: z.number().int().optional().meta({ description: "The run the changes join." }),
    url_count: z.number().int().optional(),
    status: z.string().optional().meta({ description: "That run's status (`pending` until `warm_at`)." }),
    warm_at: timestamp.optional(),
  })
  .meta({ id: "ReceivedChange" });

export type CreateReceiverInput = z.output<typeof createReceiverBody>;
export type UpdateReceiverInput = z.output<typeof updateReceiverBody>;
export type ChangeReceiverPayload = z.infer<typeof changeReceiverSchema>;
export type ChangeDeliveryPayload = z.infer<typeof changeDeliverySchema>;
export type ReceivedChange = z.infer<typeof receivedChangeSchema>;

/** The dashboard's preview: the templates being edited (the receiver's own when absent). */
export const previewTemplatesBody = z.object({ url_templates: urlTemplatesSchema.optional() });

/** One template rendered against the last payload received. */
export type TemplateRendering = {
  key: string;
  template: string;
  /** Whether a delivery like this one is mapped through this template (its key, or `*` for a key without templates). */
  used: boolean;
  url: string | null;
  /** Why it gives no URL: a missing field, a path leaving the site. */
  miss: string | null;
};

export type TemplatesPreview = {
  /** The delivery previewed against: the receiver's last one with a payload kept, or null when none came yet. */
  delivery: { id: number; received_at: string; event: string | null; outcome: DeliveryOutcome } | null;
  /** Why such a delivery warms nothing whatever the templates (an ignored event, a deploy receiver), or why there is nothing to preview. */
  note: string | null;
  /** The key whose templates map it (Shopify's resource, a content type, a `_type`, a model). */
  key: string | null;
  /** What a delivery like it would queue with these templates, and why templates gave no URL: the receiver's own rule. */
  urls: string[];
  misses: string[];
  templates: TemplateRendering[];
};
