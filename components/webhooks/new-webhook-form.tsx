"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { Button } from "@/components/ui/button";
import { FormProblems } from "@/components/dashboard/form-problems";
import { type CreatedWebhook, webhooksQueryKey } from "./types";
import { bodyOf, emptyDraft, useWebhookErrors, WebhookFields } from "./webhook-fields";

export function NewWebhookForm({ onCreated }: { onCreated: (webhook: CreatedWebhook) => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(emptyDraft);
  const errors = useWebhookErrors(draft);
  const create = useMutation({
    mutationFn: (sent: ReturnType<typeof bodyOf>) => api<CreatedWebhook>("/webhooks", { method: "POST", body: sent }),
    onSuccess: (created) => {
      setDraft(emptyDraft);
      errors.clear();
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
    onError: (error, sent) => errors.refused(sent, error),
  });
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (errors.attempt()) create.mutate(bodyOf(draft));
      }}
    >
      <WebhookFields draft={draft} onChange={setDraft} fieldError={errors.error} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={create.isPending}>
          Add webhook
        </Button>
        <FormProblems errors={errors} />
      </div>
    </form>
  );
}
