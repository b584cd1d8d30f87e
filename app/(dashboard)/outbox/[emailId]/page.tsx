import type { Metadata } from "next";
import Link from "next/link";
import { Card, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { getOutboxEmail } from "@/lib/email/outbox";
import { addressedOr404 } from "../../owned";

export const metadata: Metadata = { title: "E-mail" };

/** One e-mail to the signed-in user, as its recipient sees it; the HTML is shown in a sandbox with no scripts. */
export default async function OutboxEmailPage({ params }: { params: Promise<{ emailId: string }> }) {
  const email = await addressedOr404((await params).emailId, getOutboxEmail);
  return (
    <div className="space-y-6">
      <PageHeader
        title={email.subject}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={email.status} /> to {email.to}, from {email.from}, <LocalTime value={email.created_at} />
            {email.last_error ? <span className="text-red-700">· {email.last_error}</span> : null}
          </span>
        }
        actions={
          <Link href="/outbox" className="text-sm font-medium text-brand-700 underline">
            Back to the outbox
          </Link>
        }
      />
      <Card title="As sent">
        <iframe title="E-mail" sandbox="" srcDoc={email.html} className="h-[720px] w-full rounded border border-slate-200 bg-white" />
      </Card>
      <Card title="Plain-text part">
        <pre className="whitespace-pre-wrap wrap-anywhere text-xs text-slate-700">{email.text}</pre>
      </Card>
    </div>
  );
}
