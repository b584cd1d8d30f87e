"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { Card, ErrorNote } from "@/components/ui/card";
import { type Webhook, webhookQueryKey, webhooksQueryKey } from "./types";
import { bodyOf, draftOf, WebhookFields } from "./webhook-fields";

const FIELDS = ["url", "events", "format", "description"];

export function WebhookEditForm({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(webhook));
  const save = useMutation({
    mutationFn: () => api<Webhook>(`/webhooks/${webhook.id}`, { method: "PATCH", body: bodyOf(draft) }),
    onSuccess: (updated) => {
      queryClient.setQueryData(webhookQueryKey(webhook.id), updated);
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
  });
  const fieldError = (field: string) => (save.error instanceof ApiError ? save.error.field(field) : undefined);
  return (
    <Card title="Settings">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <WebhookFields
          draft={draft}
          onChange={(next) => {
            setDraft(next);
            save.reset();
          }}
          fieldError={fieldError}
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
          <ErrorNote error={save.error && !FIELDS.some(fieldError) ? save.error : null} />
        </div>
      </form>
    </Card>
  );
}
