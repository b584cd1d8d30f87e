"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/components/dashboard/api";
import type { OutboxItem } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from "@/components/ui/card";
import { TextInput } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";

type Email = OutboxItem & { text: string };

export function EmailsView() {
  const [search, setSearch] = useState("");
  const [to, setTo] = useState("");
  const emails = useQuery({
    queryKey: ["operator", "emails", to],
    queryFn: () => api<{ data: Email[] }>(`/api/operator/emails?${new URLSearchParams({ to, last: "10" })}`),
    enabled: to !== "",
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title="E-mails"
        subtitle="The latest e-mails to an address, whichever organization they belong to. A sign-in, sign-up, invitation or address-change link is its addressee's alone: the console shows that it went, not the link. When the server sends no e-mail (no RESEND_API_KEY), the CLI's emails --to, run where the database is, prints it for an address nobody can sign in to yet."
      />
      <Card>
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setTo(search.trim().toLowerCase());
          }}
        >
          <TextInput aria-label="Recipient's e-mail address" type="email" placeholder="user@example.com" value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
          <Button type="submit" variant="secondary">
            Show e-mails
          </Button>
        </form>
      </Card>
      {!to ? null : emails.isPending ? (
        <Loading />
      ) : emails.error ? (
        <ErrorNote error={emails.error} />
      ) : emails.data.data.length === 0 ? (
        <EmptyState title={`No e-mail to ${to}`} />
      ) : (
        emails.data.data.map((email) => (
          <Card
            key={email.id}
            title={email.subject}
            actions={
              <span className="flex items-center gap-2 text-sm text-slate-600">
                <LocalTime value={email.created_at} /> <StatusBadge status={email.status} />
              </span>
            }
          >
            <p className="mb-2 text-xs text-slate-500">
              To {email.to} · {email.template}
              {email.last_error ? ` · last error: ${email.last_error}` : ""}
            </p>
            <pre className="whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 text-sm">{email.text.trim()}</pre>
          </Card>
        ))
      )}
    </div>
  );
}
