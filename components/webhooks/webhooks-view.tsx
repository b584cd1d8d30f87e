"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page } from "@/components/dashboard/types";
import { ColumnHeads, td, tdNum } from "@/components/runs/run-cells";
import { Pager } from "@/components/runs/pager";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { NewWebhookForm } from "./new-webhook-form";
import { SecretNotice } from "./secret-notice";
import { type CreatedWebhook, type Webhook, webhooksQueryKey } from "./types";
import { WebhookState } from "./webhook-state";
import { Can } from "@/components/dashboard/role";
import { TableScroll } from "@/components/ui/table-scroll";

const LIMIT = 20;

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api(`/webhooks/${webhook.id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
  return (
    <tr data-testid="webhook-row">
      <td className={`${td} min-w-[14rem] max-w-md whitespace-normal`}>
        <Link href={`/webhooks/${webhook.id}`} className="break-all font-medium text-brand-700 hover:underline">
          {webhook.url}
        </Link>
        {webhook.description ? <p className="text-xs text-slate-500">{webhook.description}</p> : null}
      </td>
      <td className={`${td} whitespace-normal text-xs`}>{webhook.events.join(", ")}</td>
      <td className={td}>{webhook.format === "slack" ? "Slack" : "Standard"}</td>
      <td className={`${td} max-w-xs whitespace-normal`}>
        <WebhookState webhook={webhook} />
      </td>
      <td className={tdNum}>{webhook.consecutive_failures}</td>
      <td className={`${td} text-right`}>
        <Can atLeast="admin">
          <ConfirmButton label="Delete" confirmLabel="Delete webhook" question="Delete it and its deliveries?" busy={remove.isPending} onConfirm={() => remove.mutate()} />
        </Can>
        <ErrorNote error={remove.error} />
      </td>
    </tr>
  );
}

/** The account's webhooks: add one (its secret shown once), see which ones Preheat disabled and why, delete. `limit` is the operator's PREHEAT_WEBHOOKS_PER_ACCOUNT. */
export function WebhooksView({ limit }: { limit: number }) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [offset, setOffset] = useState(0);
  const webhooks = useQuery({
    queryKey: [...webhooksQueryKey, { offset }],
    queryFn: () => api<Page<Webhook>>(`/webhooks?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        subtitle="Preheat POSTs an event to each webhook when a run ends, fails or pauses, and when a sitemap is read or fails. A webhook whose endpoint keeps failing is disabled, and you are told by e-mail."
      />
      {created ? <SecretNotice webhook={created} onDone={() => setCreated(null)} /> : null}
      <Card title="New webhook">
        <p className="mb-4 text-sm text-slate-600">
          An account has at most {limit} webhooks, one per URL: a URL that differs from another only in the case of its host, a default port or a trailing slash after the host is the same one, while
          another path or query is not. Until an endpoint has answered 2xx once, each event is retried 3 times only; send it a test event to check it.
        </p>
        <Can atLeast="admin">
          <NewWebhookForm onCreated={setCreated} />
        </Can>
      </Card>
      <Card title={webhooks.data ? `Your webhooks (${webhooks.data.total} of ${limit})` : "Your webhooks"}>
        {webhooks.isPending ? (
          <Loading label="Loading webhooks…" />
        ) : webhooks.isError ? (
          <ErrorNote error={webhooks.error} />
        ) : webhooks.data.total === 0 ? (
          <EmptyState title="No webhooks yet">
            <Can atLeast="admin" otherwise="An admin or owner of the organization adds them, to hear about runs and sitemaps as they happen.">
              Add one above to hear about runs and sitemaps as they happen.
            </Can>
          </EmptyState>
        ) : (
          <>
            <TableScroll label="Webhooks" className="-mx-4 sm:mx-0">
              <table className="min-w-full divide-y divide-slate-200">
                <caption className="sr-only">Webhooks of this account</caption>
                <thead>
                  <tr>
                    <ColumnHeads labels={["URL", "Events", "Format", "State", "Failures"]} numeric={["Failures"]} actions />
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {webhooks.data.data.map((webhook) => (
                    <WebhookRow key={webhook.id} webhook={webhook} />
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <Pager offset={offset} limit={LIMIT} total={webhooks.data.total} onChange={setOffset} noun="webhooks" />
          </>
        )}
      </Card>
    </div>
  );
}
