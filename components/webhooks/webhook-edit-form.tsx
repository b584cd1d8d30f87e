"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormProblems } from "@/components/dashboard/form-problems";
import { type Webhook, webhookQueryKey, webhooksQueryKey } from "./types";
import { bodyOf, draftOf, useWebhookErrors, WebhookFields } from "./webhook-fields";

export function WebhookEditForm({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(webhook));
  const errors = useWebhookErrors(draft);
  const save = useMutation({
    mutationFn: (sent: ReturnType<typeof bodyOf>) => api<Webhook>(`/webhooks/${webhook.id}`, { method: "PATCH", body: sent }),
    onSuccess: (updated) => {
      queryClient.setQueryData(webhookQueryKey(webhook.id), updated);
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  return (
    <Card title="Settings">
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (errors.attempt()) save.mutate(bodyOf(draft));
        }}
      >
        <WebhookFields
          draft={draft}
          onChange={(next) => {
            setDraft(next);
            if (save.isSuccess) save.reset();
          }}
          fieldError={errors.error}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" busy={save.isPending}>
            Save changes
          </Button>
          {save.isSuccess ? (
            <p role="status" className="text-sm text-emerald-700">
              Saved: the next event is sent with these settings.
            </p>
          ) : null}
          <FormProblems errors={errors} />
        </div>
      </form>
    </Card>
  );
}
