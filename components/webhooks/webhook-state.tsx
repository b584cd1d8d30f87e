import { StatusBadge } from "@/components/ui/status-badge";
import type { Webhook } from "./types";

/** Whether deliveries go out ("active", in the dashboard's green), and when Preheat stopped them itself, why. */
export function WebhookState({ webhook }: { webhook: Webhook }) {
  return (
    <>
      <StatusBadge status={webhook.enabled ? "active" : "disabled"} />
      {webhook.disabled_reason ? <span className="mt-1 block text-xs text-red-700">{webhook.disabled_reason}</span> : null}
    </>
  );
}
