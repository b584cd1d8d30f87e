import type { Metadata } from "next";
import { WebhookView } from "@/components/webhooks/webhook-view";
import { getWebhookRow, toWebhook } from "@/lib/webhooks/service";
import { ownedOr404 } from "../../owned";

export const metadata: Metadata = { title: "Webhook" };

export default async function WebhookPage({ params }: { params: Promise<{ webhookId: string }> }) {
  const webhook = await ownedOr404((await params).webhookId, async (ctx, id) => toWebhook(await getWebhookRow(ctx, id)));
  return <WebhookView initialWebhook={webhook} />;
}
