"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { Page } from "@/components/dashboard/types";
import { ColumnHeads, td, tdNum } from "@/components/runs/run-cells";
import { Pager } from "@/components/runs/pager";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { TableScroll } from "@/components/ui/table-scroll";
import { deliveriesQueryKey, type WebhookDelivery } from "./types";

const LIMIT = 20;

/** The webhook's delivery attempts, newest first; refreshed now and then, as retries happen in the background. */
export function WebhookDeliveries({ webhookId }: { webhookId: number }) {
  const [offset, setOffset] = useState(0);
  const deliveries = useQuery({
    queryKey: [...deliveriesQueryKey(webhookId), { offset }],
    queryFn: () => api<Page<WebhookDelivery>>(`/webhooks/${webhookId}/deliveries?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <Card title="Deliveries">
      {deliveries.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <ErrorNote error={deliveries.error} />
      ) : deliveries.data.total === 0 ? (
        <EmptyState title="No deliveries yet">Each attempt to deliver an event (and each test) is listed here.</EmptyState>
      ) : (
        <>
          <TableScroll label="Delivery attempts" className="-mx-4 sm:mx-0">
            <table className="min-w-full divide-y divide-slate-200" data-testid="webhook-deliveries">
              <caption className="sr-only">Delivery attempts of this webhook, newest first</caption>
              <thead>
                <tr>
                  <ColumnHeads labels={["Sent", "Event", "Attempt", "Status", "Duration", "Error"]} numeric={["Attempt", "Status", "Duration"]} />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {deliveries.data.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td className={td}>
                      <LocalTime value={delivery.created_at} />
                    </td>
                    <td className={td}>
                      <code className="text-xs">{delivery.event}</code>
                    </td>
                    <td className={tdNum}>{delivery.attempt}</td>
                    <td className={tdNum}>{delivery.status_code ?? <span className="text-slate-500">no answer</span>}</td>
                    <td className={tdNum}>{delivery.duration_ms.toLocaleString("en")} ms</td>
                    <td className={`${td} min-w-[14rem] whitespace-normal`}>
                      {delivery.error ? <span className="text-red-700">{delivery.error}</span> : <span className="text-green-700">delivered</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager offset={offset} limit={LIMIT} total={deliveries.data.total} onChange={setOffset} noun="deliveries" />
        </>
      )}
    </Card>
  );
}
