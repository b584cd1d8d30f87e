"use client";

import { Check, CheckboxGroup, toggle } from "@/components/ui/choices";
import { Field, inputClass, TextInput } from "@/components/ui/field";
import { checkWith, useFormErrors } from "@/components/dashboard/form-errors";
import { createWebhookBody, WEBHOOK_EVENTS, WEBHOOK_FORMATS, type WebhookEvent } from "@/lib/webhooks/schemas";
import type { Webhook } from "./types";

export type WebhookDraft = { url: string; events: WebhookEvent[]; format: Webhook["format"]; description: string };

export const emptyDraft: WebhookDraft = { url: "", events: ["run.completed", "run.failed"], format: "standard", description: "" };

export const draftOf = (webhook: Webhook): WebhookDraft => ({ url: webhook.url, events: webhook.events, format: webhook.format, description: webhook.description ?? "" });

/** The request body for a draft: an empty description is no description. */
export const bodyOf = (draft: WebhookDraft) => ({ url: draft.url, events: draft.events, format: draft.format, description: draft.description.trim() || null });

const EVENT_MEANINGS: Record<WebhookEvent, string> = {
  "run.completed": "a run ended done",
  "run.failed": "a run failed",
  "run.paused": "a boost paused itself after errors",
  "sitemap.processed": "a sitemap was read",
  "sitemap.failed": "a sitemap could not be read",
};

const FORMAT_LABELS: Record<Webhook["format"], string> = {
  standard: "Standard Webhooks (signed JSON)",
  slack: "Slack (incoming-webhook URL)",
};

const WEBHOOK_FIELDS = ["url", "events", "format", "description"];

/** A webhook form's errors: the API's own check of the draft once a submit was tried, and what the server refused, each gone once its field changes. */
export function useWebhookErrors(draft: WebhookDraft) {
  const body = bodyOf(draft);
  return useFormErrors(body, WEBHOOK_FIELDS, checkWith(createWebhookBody, body, WEBHOOK_FIELDS));
}

/** The fields a webhook is made of, shared by the form that adds one and the one that edits it. */
export function WebhookFields({ draft, onChange, fieldError }: { draft: WebhookDraft; onChange: (draft: WebhookDraft) => void; fieldError: (field: string) => string | undefined }) {
  const set = <K extends keyof WebhookDraft>(key: K, value: WebhookDraft[K]) => onChange({ ...draft, [key]: value });
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Endpoint URL" hint="Preheat POSTs each event here; it must be reachable from the Internet, and no other webhook of yours may have it." error={fieldError("url")}>
          {(a) => <TextInput {...a} name="webhook-url" type="url" required placeholder="https://hooks.example.com/preheat" value={draft.url} onChange={(e) => set("url", e.target.value)} />}
        </Field>
        <Field label="Format" hint="Slack: paste a Slack incoming-webhook URL above; each event becomes a short message." error={fieldError("format")}>
          {(a) => (
            <select {...a} name="webhook-format" value={draft.format} onChange={(e) => set("format", e.target.value as Webhook["format"])} className={inputClass}>
              {WEBHOOK_FORMATS.map((format) => (
                <option key={format} value={format}>
                  {FORMAT_LABELS[format]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <CheckboxGroup
        legend="Events"
        hint="Each event is sent once, and retried for about a day while the endpoint does not answer 2xx (3 times only until it has answered 2xx once)."
        error={fieldError("events")}
      >
        {WEBHOOK_EVENTS.map((event) => (
          <Check
            key={event}
            name="events"
            label={
              <span>
                <code>{event}</code> <span className="text-slate-500">({EVENT_MEANINGS[event]})</span>
              </span>
            }
            checked={draft.events.includes(event)}
            onChange={(on) => set("events", toggle(draft.events, event, on))}
          />
        ))}
      </CheckboxGroup>
      <Field label="Description (optional)" hint="What receives it, e.g. Deploy dashboard." error={fieldError("description")}>
        {(a) => <TextInput {...a} name="webhook-description" maxLength={500} value={draft.description} onChange={(e) => set("description", e.target.value)} />}
      </Field>
    </div>
  );
}
