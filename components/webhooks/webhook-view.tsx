"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Breadcrumb } from "@/components/ui/breadcrumb";
import { useRouter } from "next/navigation";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { LocalTime } from "@/components/ui/local-time";
import { type Webhook, webhookQueryKey, webhooksQueryKey } from "./types";
import { WebhookDeliveries } from "./webhook-deliveries";
import { WebhookEditForm } from "./webhook-edit-form";
import { WebhookState } from "./webhook-state";
import { WebhookTest } from "./webhook-test";
import { Can } from "@/components/dashboard/role";

/** One webhook: its state, a test event, its settings, its deliveries. */
export function WebhookView({ initialWebhook }: { initialWebhook: Webhook }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const webhookId = initialWebhook.id;
  const { data: webhook, error: loadError } = useQuery({
    queryKey: webhookQueryKey(webhookId),
    queryFn: () => api<Webhook>(`/webhooks/${webhookId}`),
    initialData: initialWebhook,
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api<Webhook>(`/webhooks/${webhookId}`, { method: "PATCH", body: { enabled } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(webhookQueryKey(webhookId), updated);
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
  });
  const remove = useMutation({
    mutationFn: () => api(`/webhooks/${webhookId}`, { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: webhookQueryKey(webhookId) });
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
      router.push("/webhooks");
    },
  });

  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ href: "/webhooks", label: "Webhooks" }]} current="Webhook" />
      <PageHeader
        title={webhook.description || webhook.url}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <WebhookState webhook={webhook} />
            {webhook.description ? <span className="break-all font-mono text-xs">{webhook.url}</span> : null}
            <span>
              · {webhook.consecutive_failures} failed attempt{webhook.consecutive_failures === 1 ? "" : "s"} since the last success · created <LocalTime value={webhook.created_at} />
            </span>
          </span>
        }
        actions={
          <Can atLeast="admin">
            <Button variant="secondary" busy={toggle.isPending} onClick={() => toggle.mutate(!webhook.enabled)}>
              {webhook.enabled ? "Disable" : "Enable"}
            </Button>
          </Can>
        }
      />
      <ErrorNote error={loadError ?? toggle.error} />
      {webhook.enabled ? null : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          No events are sent while it is disabled. “Enable” sends the next ones again, and its failure count starts afresh.
        </p>
      )}

      <Can atLeast="admin">
        <Card title="Test">
          <WebhookTest webhookId={webhookId} />
        </Card>
        <WebhookEditForm webhook={webhook} />
      </Can>
      <WebhookDeliveries webhookId={webhookId} />

      <Can atLeast="admin">
        <Card title="Delete this webhook">
          <p className="mb-3 text-sm text-slate-600">Stops its deliveries at once, and removes their history.</p>
          <ConfirmButton label="Delete webhook" confirmLabel="Yes, delete this webhook" question="Delete the webhook and its deliveries?" busy={remove.isPending} onConfirm={() => remove.mutate()} />
          <ErrorNote error={remove.error} />
        </Card>
      </Can>
    </div>
  );
}
