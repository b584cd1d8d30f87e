"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";
import { Card } from "@/components/ui/card";
import { ALLOW_LISTING_PATH, type BlockVendor, blockedSentence } from "@/lib/core/block-vendors";

type Verdict = Site["blocked_verdicts"][string];

/** "Blocked by Cloudflare's bot protection on 25 Nov 2026 (run #12, user agent bot)". */
function verdictSentence(agent: string, verdict: Verdict): string {
  const on = new Date(verdict.at).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
  return `${blockedSentence(verdict.blocked_by as BlockVendor)} on ${on} (run #${verdict.run_id}, user agent ${agent})`;
}

function GuideLink() {
  return (
    <Link href={ALLOW_LISTING_PATH} className="font-medium text-amber-900 underline">
      see the guide
    </Link>
  );
}

/** The site page's warning: each user-agent class bot protection blocked here, until a run of it gets through. */
export function BlockedVerdictsCard({ site }: { site: Site }) {
  const verdicts = Object.entries(site.blocked_verdicts ?? {});
  if (!verdicts.length) return null;
  return (
    <Card title="Blocked by bot protection" className="border-amber-300 bg-amber-50">
      <ul className="space-y-1 text-sm text-amber-900">
        {verdicts.map(([agent, verdict]) => (
          <li key={agent}>
            {verdictSentence(agent, verdict)}: let Preheat through — <GuideLink />.{" "}
            <Link href={`/runs/${verdict.run_id}`} className="underline">
              Run #{verdict.run_id}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Next to a form's user-agent choice: the chosen classes bot protection blocked on this site before. */
export function BlockedAgentsWarning({ siteId, chosen }: { siteId: number; chosen: readonly string[] }) {
  const { data: site } = useQuery({ queryKey: ["sites", siteId], queryFn: () => api<Site>(`/sites/${siteId}`) });
  const blocked = chosen.flatMap((agent) => {
    const verdict = site?.blocked_verdicts?.[agent];
    return verdict ? [[agent, verdict] as const] : [];
  });
  if (!blocked.length) return null;
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      {blocked.map(([agent, verdict]) => (
        <p key={agent}>
          {verdictSentence(agent, verdict)}: its calls will be challenged again unless you let Preheat through — <GuideLink />.
        </p>
      ))}
    </div>
  );
}
