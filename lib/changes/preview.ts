import type { AccountContext } from "@/lib/context";
import { lastPayloadDelivery } from "./deliveries";
import type { DeliveryOutcome, ReceiverKind, TemplateRendering, TemplatesPreview, UrlTemplates } from "./receiver-schemas";
import { getSiteReceiver } from "./receivers";
import { SYSTEMS } from "./systems";
import { mapPayload, renderTemplate, templatesKeyFor } from "./templates";

/**
 * The header in which a system names its event, which a delivery keeps as its `event` (headers
 * themselves are not kept): Shopify's topic chooses the templates, Contentful's tells an entry's
 * publication from its deletion. Sanity and Strapi say it all in the payload.
 */
const EVENT_HEADER: Partial<Record<ReceiverKind, string>> = { shopify: "x-shopify-topic", contentful: "x-contentful-topic" };

/**
 * URL templates previewed against the receiver's last payload received (secrets removed, as kept):
 * each template's URL or why it gives none, and what a delivery like it would queue, by the same
 * rule a delivery is mapped with (`mapPayload`). `templates`: a draft being edited; the receiver's own
 * when absent. Without a payload yet, the answer says so and renders nothing.
 */
export async function previewTemplates(ctx: AccountContext, siteId: number, receiverId: number, templates?: UrlTemplates): Promise<TemplatesPreview> {
  const { site, receiver } = await getSiteReceiver(ctx, siteId, receiverId);
  const kind = receiver.kind as ReceiverKind;
  const system = SYSTEMS[kind];
  const drafted = templates ?? receiver.urlTemplates;
  const last = await lastPayloadDelivery(ctx.db, receiver.id);
  const delivery = last ? { id: last.id, received_at: last.receivedAt.toISOString(), event: last.event, outcome: last.outcome as DeliveryOutcome } : null;
  const empty = { delivery, key: null, urls: [], misses: [], templates: [] };
  if (!system.takesTemplates) return { ...empty, note: `A ${kind} receiver takes no templates: its deploys warm what the site's sitemaps say changed.` };
  if (!last) return { ...empty, note: `No payload received yet: once ${kind} sends a delivery, each template's URL (or why it gives none) shows here.` };

  const header = EVENT_HEADER[kind];
  const reading = system.read(last.payload, header && last.event ? { [header]: last.event } : {});
  const key = reading.action === "map" ? reading.key : undefined;
  const usedKey = reading.action === "map" ? templatesKeyFor(drafted, key) : undefined;
  const rendered: TemplateRendering[] = Object.entries(drafted).flatMap(([templateKey, list]) =>
    list.map((template) => {
      const result = renderTemplate(template, last.payload, site.domain);
      return { key: templateKey, template, used: templateKey === usedKey, url: "url" in result ? result.url : null, miss: "miss" in result ? result.miss : null };
    }),
  );
  if (reading.action !== "map") {
    const note = reading.action === "ignore" ? `This delivery warms nothing whatever the templates: ${reading.reason}` : "A deploy: it warms what the sitemaps say changed.";
    return { delivery, note, key: null, urls: [], misses: [], templates: rendered };
  }
  const mapped = mapPayload(drafted, key, last.payload, site.domain);
  return { delivery, note: null, key: key ?? null, urls: mapped.urls, misses: mapped.misses, templates: rendered };
}
