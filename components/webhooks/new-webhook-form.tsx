"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { type CreatedWebhook, webhooksQueryKey } from "./types";
import { bodyOf, emptyDraft, WebhookFields } from "./webhook-fields";

const FIELDS = ["url", "events", "format", "description"];

export function NewWebhookForm({ onCreated }: { onCreated: (webhook: CreatedWebhook) => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(emptyDraft);
  const create = useMutation({
    mutationFn: () => api<CreatedWebhook>("/webhooks", { method: "POST", body: bodyOf(draft) }),
    onSuccess: (created) => {
      setDraft(emptyDraft);
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
  });
  const fieldError = (field: string) => (create.error instanceof ApiError ? create.error.field(field) : undefined);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <WebhookFields draft={draft} onChange={setDraft} fieldError={fieldError} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={create.isPending}>
          Add webhook
        </Button>
        <ErrorNote error={create.error && !FIELDS.some(fieldError) ? create.error : null} />
      </div>
    </form>
  );
}
