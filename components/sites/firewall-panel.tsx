"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";
import { Card, ErrorNote } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { Can } from "@/components/dashboard/role";
import { GUIDE_PATHS } from "@/lib/core/guide-paths";

/** The site's verification secret, as a firewall rule needs it, and its rotation. */
export function FirewallPanel({ site }: { site: Site }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => api<{ verification_secret: string }>(`/sites/${site.id}/verification/rotate`, { method: "POST" }),
    onSuccess: ({ verification_secret }) => queryClient.setQueryData<Site>(["sites", site.id], (old) => (old ? { ...old, verification_secret } : old)),
  });
  return (
    <Card title="Let Preheat through your firewall">
      <p className="mb-3 text-sm text-slate-600">
        Every warming call to {site.domain} carries this header. A firewall or bot-protection rule that lets requests with it through lets exactly Preheat through, even when it warms as Googlebot or
        GPTBot from a network that is not theirs.{" "}
        <Link href={GUIDE_PATHS.botProtection} className="text-sky-700 underline">
          How to allow it on Cloudflare, Akamai, Fastly, AWS WAF, Imperva, Sucuri and Vercel
        </Link>
        .
      </p>
      <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Header</dt>
        <dd>
          <code className="rounded bg-slate-100 px-1">Preheat-Verification</code>
        </dd>
        <dt className="font-medium text-slate-700">Value</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <code className="break-all rounded bg-slate-100 px-1" data-testid="verification-secret">
            {site.verification_secret}
          </code>
          <CopyButton value={site.verification_secret} label="Copy value" />
        </dd>
      </dl>
      <div className="mt-4 space-y-2">
        <p className="text-sm text-slate-600">Rotate it if it leaked: calls send the new value within seconds and never the old one again, so update your rule at the same time.</p>
        <Can atLeast="admin">
          <ConfirmButton
            label="Rotate"
            confirmLabel="Rotate the value"
            question="Your firewall rule must then compare the new value. Rotate?"
            busy={rotate.isPending}
            onConfirm={() => rotate.mutate()}
          />
        </Can>
        {rotate.isSuccess ? (
          <p role="status" className="text-sm text-emerald-700">
            Rotated: the value above is the new one.
          </p>
        ) : null}
        <ErrorNote error={rotate.error} />
      </div>
    </Card>
  );
}
