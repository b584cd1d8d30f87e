"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { deliveriesQueryKey, type WebhookDelivery, webhookQueryKey } from "./types";

function Outcome({ delivery }: { delivery: WebhookDelivery }) {
  if (!delivery.error) {
    return (
      <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
        Test event delivered: the endpoint answered HTTP {delivery.status_code} in {delivery.duration_ms.toLocaleString("en")} ms.
      </p>
    );
  }
  return (
    <p role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      Test event failed: {delivery.error}. It counts as a failed attempt, like any other delivery.
    </p>
  );
}

/** Sends one signed `webhook.test` event now and says how the endpoint took it; the attempt joins the deliveries. */
export function WebhookTest({ webhookId }: { webhookId: number }) {
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () => api<WebhookDelivery>(`/webhooks/${webhookId}/test`, { method: "POST" }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(webhookId) });
      // The attempt moves the failure count, and a failure can be the one that disables the webhook.
      void queryClient.invalidateQueries({ queryKey: webhookQueryKey(webhookId), exact: true });
    },
  });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" busy={send.isPending} onClick={() => send.mutate()}>
          Send test event
        </Button>
        <p className="text-sm text-slate-600">
          Sends a <code>webhook.test</code> event now, whatever the events chosen, and waits for the answer (10 s at most). One test every 10 s; a 2xx answer lets events be retried for a whole day.
        </p>
      </div>
      <div aria-live="polite" className="empty:hidden">
        {send.data ? <Outcome delivery={send.data} /> : null}
      </div>
      <ErrorNote error={send.error} />
    </div>
  );
}
