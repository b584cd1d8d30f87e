import type { Metadata } from "next";
import { OutboxView } from "@/components/outbox/outbox-view";
import { currentTransport } from "@/lib/email/transport";

export const metadata: Metadata = { title: "Outbox" };
export const dynamic = "force-dynamic";

export default function OutboxPage() {
  return <OutboxView transport={currentTransport().name} />;
}
