"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import { Can, useCan } from "@/components/dashboard/role";
import type { ChangeDeliveryList, ChangeReceiver, CreatedChangeReceiver, TemplatesPreview } from "@/components/dashboard/types";
import { useSettled } from "@/components/dashboard/use-settled";
import { Button } from "@/components/ui/button";
import { ErrorNote, Loading } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { DEPLOY_KINDS, KIND_NAMES, ReceiverSteps } from "./receiver-steps";
import { linesToTemplates, templatesToLines } from "./template-lines";

const SHOWN_DELIVERIES = 5;

/** What each delivery outcome means, as docs/guide/site-owners/change-receivers.md says it. */
const OUTCOME_MEANINGS: Record<string, string> = {
  queued: "its URLs were queued for a warm",
  unmapped: "no template gave a URL",
  ignored: "an event that changes no page",
  malformed: "signed, but not JSON",
  failed: "the warm was refused",
};
const OUTCOME_TONES: Record<string, string> = { queued: "done", unmapped: "paused", ignored: "pending", malformed: "failed", failed: "failed" };

/** One receiver: its URL and set-up, its secret's rotation, its last deliveries and its URL templates with their preview. */
export function ReceiverItem({ siteId, receiver, onSecret }: { siteId: number; receiver: ChangeReceiver; onSecret: (created: CreatedChangeReceiver) => void }) {
  const queryClient = useQueryClient();
  const path = `/sites/${siteId}/change-receivers/${receiver.id}`;
  const rotate = useMutation({ mutationFn: () => api<CreatedChangeReceiver>(`${path}/rotate-secret`, { method: "POST" }), onSuccess: onSecret });
  const remove = useMutation({
    mutationFn: () => api(path, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["change-receivers", siteId] }),
  });
  const deploy = DEPLOY_KINDS.includes(receiver.kind);
  return (
    <article className="space-y-4 rounded-md border border-slate-200 p-3 sm:p-4" data-testid="change-receiver" aria-label={`${KIND_NAMES[receiver.kind]} receiver ${receiver.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-semibold text-slate-900">
          {KIND_NAMES[receiver.kind]} <span className="font-normal text-slate-500">receiver {receiver.id}</span>
        </h4>
        <Can atLeast="admin">
          <div className="flex flex-wrap gap-2">
            <ConfirmButton
              label="Rotate secret"
              confirmLabel="Rotate the secret"
              question="The old secret stops working at once: paste the new one into the system. Rotate?"
              busy={rotate.isPending}
              onConfirm={() => rotate.mutate()}
            />
            <ConfirmButton
              label="Delete"
              confirmLabel="Delete the receiver"
              question="Its URL then answers 404 and its deliveries go. Delete?"
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </div>
        </Can>
      </div>
      <ErrorNote error={rotate.error ?? remove.error} />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium text-slate-700">URL</span>
        <code className="break-all rounded bg-slate-100 px-1" data-testid="receiver-url">
          {receiver.url}
        </code>
        <CopyButton value={receiver.url} label="Copy URL" />
      </div>
      <ReceiverSteps kind={receiver.kind} />
      {deploy ? (
        <p className="text-sm text-slate-600">Deploys take no URL templates: they warm what the site's sitemaps say changed, through the change boost above.</p>
      ) : (
        <Templates siteId={siteId} receiver={receiver} />
      )}
      <Deliveries path={path} />
    </article>
  );
}

function Deliveries({ path }: { path: string }) {
  const deliveries = useQuery({ queryKey: ["change-deliveries", path], queryFn: () => api<ChangeDeliveryList>(`${path}/deliveries`), refetchInterval: 10_000 });
  return (
    <section className="space-y-2">
      <h5 className="text-sm font-semibold text-slate-900">Last deliveries</h5>
      {deliveries.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <ErrorNote error={deliveries.error} />
      ) : deliveries.data.data.length === 0 ? (
        <p className="text-sm text-slate-600">None yet: a delivery shows here once the system sends one with a valid signature (one without is refused and not kept).</p>
      ) : (
        <ul className="space-y-2 text-sm" aria-label="Last deliveries">
          {deliveries.data.data.slice(0, SHOWN_DELIVERIES).map((delivery) => (
            <li key={delivery.id} className="rounded border border-slate-100 p-2">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={OUTCOME_TONES[delivery.outcome] ?? delivery.outcome} meaning={OUTCOME_MEANINGS[delivery.outcome]} />
                <span className="font-medium">{delivery.outcome}</span>
                <span className="text-slate-600">
                  <LocalTime value={delivery.received_at} />
                  {delivery.event ? ` · ${delivery.event}` : ""}
                </span>
                {delivery.run_id !== null ? (
                  <Link href={`/runs/${delivery.run_id}`} className="text-brand-700 hover:underline">
                    Run {delivery.run_id}
                  </Link>
                ) : null}
              </div>
              {delivery.urls.length ? (
                <p className="mt-1 break-all font-mono text-xs text-slate-700">
                  {delivery.urls.length} URL{delivery.urls.length === 1 ? "" : "s"}: {delivery.urls.slice(0, 3).join(", ")}
                  {delivery.urls.length > 3 ? ", …" : ""}
                </p>
              ) : null}
              {delivery.reason ? <p className="mt-1 text-slate-700">{delivery.reason}</p> : null}
            </li>
          ))}
          {deliveries.data.data.length > SHOWN_DELIVERIES ? (
            <li className="text-slate-600">
              {deliveries.data.data.length - SHOWN_DELIVERIES} older ones are kept too (GET …/deliveries lists all {deliveries.data.data.length}).
            </li>
          ) : null}
        </ul>
      )}
    </section>
  );
}

/** The receiver's URL templates, edited as lines, with what each renders to against the last payload received. */
function Templates({ siteId, receiver }: { siteId: number; receiver: ChangeReceiver }) {
  const queryClient = useQueryClient();
  const canChange = useCan("admin");
  const saved = templatesToLines(receiver.url_templates);
  const [text, setText] = useState(saved);
  const { templates, problem } = linesToTemplates(text);
  const settled = useSettled({ templates, problem }, 400);
  const path = `/sites/${siteId}/change-receivers/${receiver.id}`;
  const preview = useQuery({
    queryKey: ["change-preview", receiver.id, settled.templates],
    queryFn: () => api<TemplatesPreview>(`/api/dashboard${path}/preview`, { method: "POST", body: { url_templates: settled.templates } }),
    enabled: settled.problem === null,
    // The preview follows new deliveries too.
    refetchInterval: 15_000,
  });
  const save = useMutation({
    mutationFn: () => api<ChangeReceiver>(path, { method: "PATCH", body: { url_templates: templates } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["change-receivers", siteId] }),
  });
  const id = `templates-${receiver.id}`;
  return (
    <section className="space-y-2">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        URL templates
      </label>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        One a line: <code>key: /path/{"{field}"}</code>. The key is Shopify's resource (<code>products</code>, <code>collections</code>, <code>pages</code>), Contentful's content type, Sanity's{" "}
        <code>_type</code> or Strapi's <code>model</code>; <code>*</code> serves any key without templates of its own. A placeholder is a dotted path into the JSON the system sends, such as{" "}
        <code>{"{fields.slug.en-US}"}</code>; each path is joined with the site's address.
      </p>
      <textarea
        id={id}
        aria-describedby={`${id}-hint`}
        className={`${inputClass} min-h-24 font-mono`}
        value={text}
        readOnly={!canChange}
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value);
          save.reset();
        }}
      />
      {problem ? (
        <p role="alert" className="text-xs font-medium text-red-600">
          {problem}
        </p>
      ) : null}
      <Can atLeast="admin">
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="secondary" busy={save.isPending} disabled={problem !== null || text === saved} onClick={() => save.mutate()}>
            Save templates
          </Button>
          {save.isSuccess ? (
            <p role="status" className="text-sm text-emerald-700">
              Saved: the next delivery is mapped with them.
            </p>
          ) : null}
        </div>
      </Can>
      <ErrorNote error={save.error} />
      <Preview preview={preview.data} pending={preview.isPending && settled.problem === null} error={preview.error} />
    </section>
  );
}

function Preview({ preview, pending, error }: { preview: TemplatesPreview | undefined; pending: boolean; error: unknown }) {
  return (
    <div className="rounded-md bg-slate-50 p-3 text-sm" data-testid="templates-preview" aria-live="polite">
      <h5 className="font-semibold text-slate-900">Preview against the last payload received</h5>
      {pending ? <Loading label="Rendering the templates…" /> : null}
      <ErrorNote error={error} />
      {preview ? (
        <div className="mt-1 space-y-2">
          {preview.delivery ? (
            <p className="text-slate-600">
              Delivery {preview.delivery.id} of <LocalTime value={preview.delivery.received_at} />
              {preview.delivery.event ? ` (${preview.delivery.event})` : ""}
              {preview.key ? `, whose key is ${preview.key}` : ""}.
            </p>
          ) : null}
          {preview.note ? <p className="text-slate-700">{preview.note}</p> : null}
          {preview.templates.length ? (
            <ul className="space-y-1">
              {preview.templates.map((row) => (
                <li key={`${row.key} ${row.template}`} className={row.used ? "" : "text-slate-500"}>
                  <code>
                    {row.key}: {row.template}
                  </code>{" "}
                  → {row.url ? <span className="break-all font-mono text-xs">{row.url}</span> : <span>{row.miss}</span>}
                  {row.used ? "" : " (not used for this payload)"}
                </li>
              ))}
            </ul>
          ) : null}
          {preview.delivery && !preview.note ? (
            <p className="font-medium text-slate-800">
              {preview.urls.length
                ? `A delivery like it would queue ${preview.urls.length} URL${preview.urls.length === 1 ? "" : "s"}.`
                : `A delivery like it would queue nothing: ${preview.misses.join("; ")}.`}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
