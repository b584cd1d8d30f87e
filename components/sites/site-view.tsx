"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { SiteBoosts, SiteWarmRuns } from "@/components/boosts";
import { api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";
import { buttonClass } from "@/components/ui/button";
import { Card, ErrorNote, PageHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { StatusBadge } from "@/components/ui/status-badge";
import { BlockedVerdictsCard } from "./blocked-verdicts";
import { ChangesPanel } from "./changes/changes-panel";
import { FirewallPanel } from "./firewall-panel";
import { FieldPanel } from "./field/field-panel";
import { FreshnessChart } from "./freshness-chart";
import { PacePanel } from "./pace-panel";
import { SitemapsPanel } from "./sitemaps-panel";
import { TrafficPanel } from "./traffic/traffic-panel";
import { ValidationPanel } from "./validation-panel";
import { Can } from "@/components/dashboard/role";

export function SiteView({ initialSite, maxConcurrency }: { initialSite: Site; maxConcurrency: number }) {
  const router = useRouter();
  const { data: site } = useQuery({ queryKey: ["sites", initialSite.id], queryFn: () => api<Site>(`/sites/${initialSite.id}`), initialData: initialSite });
  const remove = useMutation({
    mutationFn: () => api(`/sites/${site.id}`, { method: "DELETE" }),
    onSuccess: () => router.push("/sites"),
  });
  return (
    <div className="space-y-6">
      <PageHeader
        title={site.domain}
        subtitle={<StatusBadge status={site.validated ? "validated" : "not validated"} />}
        actions={
          site.validated ? (
            <Can atLeast="member">
              <Link href={`/sites/${site.id}/warm`} className={buttonClass("primary")}>
                Warm now
              </Link>
            </Can>
          ) : null
        }
      />
      <BlockedVerdictsCard site={site} />
      <ValidationPanel site={site} />
      <SitemapsPanel siteId={site.id} domain={site.domain} />
      <PacePanel site={site} maxConcurrency={maxConcurrency} />
      <FirewallPanel site={site} />
      <FreshnessChart siteId={site.id} />
      <div id="traffic" className="scroll-mt-4">
        <TrafficPanel site={site} />
      </div>
      <FieldPanel siteId={site.id} domain={site.domain} />
      <SiteBoosts siteId={site.id} />
      <ChangesPanel site={site} />
      <SiteWarmRuns siteId={site.id} />
      <Can atLeast="admin">
        <Card title="Delete this site">
          <p className="mb-3 text-sm text-slate-600">Removes its sitemaps, boosts and run history. Scheduled boosts stop at once.</p>
          <ConfirmButton label="Delete site" confirmLabel={`Delete ${site.domain}`} question="Delete the site and everything in it?" busy={remove.isPending} onConfirm={() => remove.mutate()} />
          <ErrorNote error={remove.error} />
        </Card>
      </Can>
    </div>
  );
}
