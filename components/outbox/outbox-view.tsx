"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { OutboxItem, Page } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";

const PAGE = 20;

export function OutboxView({ transport }: { transport: "resend" | "outbox" }) {
  const [offset, setOffset] = useState(0);
  const emails = useQuery({
    queryKey: ["outbox", offset],
    queryFn: () => api<Page<OutboxItem>>(`/api/dashboard/outbox?limit=${PAGE}&offset=${offset}`),
    refetchInterval: 10_000,
    placeholderData: (previous) => previous,
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Outbox"
        subtitle={
          transport === "resend"
            ? "Every e-mail Preheat sent to your address, from every organization you are in, with its delivery state. Sign-in, confirmation and invitation links are not kept: each works from the e-mail itself."
            : "This server sends no e-mail yet: the e-mails to your address (run reports, notices, your own sign-in and invitation links) are kept here instead. Nobody else sees them, whatever their role."
        }
      />
      <Card>
        {emails.isPending ? (
          <Loading />
        ) : emails.error ? (
          <ErrorNote error={emails.error} />
        ) : emails.data.data.length === 0 ? (
          <EmptyState title="No e-mails yet">A report appears here when a boost run ends (for boosts with e-mail reports on).</EmptyState>
        ) : (
          <>
            <ul className="divide-y divide-slate-100">
              {emails.data.data.map((email) => (
                <li key={email.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <Link href={`/outbox/${email.id}`} className="font-medium text-brand-700 hover:underline">
                      {email.subject}
                    </Link>
                    <p className="text-xs text-slate-500">to {email.to}</p>
                  </div>
                  <span className="flex shrink-0 items-center gap-3 text-sm text-slate-500">
                    <StatusBadge status={email.status} />
                    <LocalTime value={email.created_at} />
                  </span>
                </li>
              ))}
            </ul>
            <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
              <span className="tabular-nums">
                {offset + 1}–{offset + emails.data.data.length} of {emails.data.total}
              </span>
              <span className="flex gap-2">
                <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                  Newer
                </Button>
                <Button variant="secondary" disabled={offset + PAGE >= emails.data.total} onClick={() => setOffset(offset + PAGE)}>
                  Older
                </Button>
              </span>
            </div>
          </>
        )}
      </Card>
    </div>
  );
}
