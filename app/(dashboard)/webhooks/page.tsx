import type { Metadata } from "next";
import { WebhooksView } from "@/components/webhooks/webhooks-view";
import { setting } from "@/lib/config";

export const metadata: Metadata = { title: "Webhooks" };
// The limit it states is the operator's, read at request time, not baked in at build time.
export const dynamic = "force-dynamic";

export default function WebhooksPage() {
  return <WebhooksView limit={setting("PREHEAT_WEBHOOKS_PER_ACCOUNT")} />;
}
