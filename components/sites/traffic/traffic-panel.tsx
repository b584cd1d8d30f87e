"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import { Can } from "@/components/dashboard/role";
import type { Site, TrafficSource } from "@/components/dashboard/types";
import { Card, EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { NewSource } from "./new-source";
import { PopularityTable } from "./popularity-table";
import { SourceItem, trafficSourcesQueryKey } from "./source-item";
import { GUIDE_PATHS } from "@/lib/core/guide-paths";

/**
 * Where the site's visitors go (issue: traffic sources and the popularity table): the sources its
 * visits are read from, each with its last read, and the table boosts ordered by traffic follow.
 */
export function TrafficPanel({ site }: { site: Site }) {
  const sources = useQuery({
    queryKey: trafficSourcesQueryKey(site.id),
    queryFn: () => api<{ data: TrafficSource[] }>(`/sites/${site.id}/traffic-sources`),
    // Every 2 s while a read is under way; otherwise a scheduled read is picked up within a minute.
    refetchInterval: (query) => (query.state.data?.data.some((source) => source.status === "reading") ? 2_000 : 60_000),
  });
  // The table is read again when a read ends or a source goes, not on every poll.
  const readsKey = sources.data
    ? sources.data.data.map((source) => `${source.id}:${source.status}:${source.last_read_at ?? ""}:${source.latest_day ?? ""}`).join(",")
    : sources.isError
      ? "unknown"
      : null;
  return (
    <Card title="Traffic">
      <div className="space-y-6">
        <p className="text-sm text-slate-600">
          Spend the warming budget where the visitors are. Once the table below has visits, boosts with <code className="rounded bg-slate-100 px-1">url_order: &quot;traffic&quot;</code> warm the most
          visited pages first; whatever a boost's order, a call limit that cannot cover every URL keeps the most visited ones, and a keep-warm budget warms them first. The estimate and each run say
          what share of the last 30 days&apos; visits they cover. The visits come from the sources below, each read on a schedule (daily by default) and on demand. The guides:{" "}
          <a href={GUIDE_PATHS.trafficLogs} className="text-brand-700 underline">
            access logs
          </a>{" "}
          (the formats, what is counted and left out) and{" "}
          <a href={GUIDE_PATHS.trafficAnalytics} className="text-brand-700 underline">
            analytics
          </a>{" "}
          (Plausible and Google Analytics 4 keys).
        </p>
        <section aria-labelledby="traffic-sources" className="space-y-3">
          <h3 id="traffic-sources" className="text-sm font-semibold text-slate-900">
            Sources
          </h3>
          {sources.isPending ? (
            <Loading label="Loading traffic sources…" />
          ) : sources.isError ? (
            <ErrorNote error={sources.error} />
          ) : sources.data.data.length === 0 ? (
            <EmptyState title="No traffic source yet">
              <Can atLeast="admin" otherwise="An admin of the organization can add one: an access log, Plausible or Google Analytics 4.">
                Add one below: an access log (uploaded, or fetched from its URL), Plausible or Google Analytics 4.
              </Can>
            </EmptyState>
          ) : (
            <ul className="space-y-4">
              {sources.data.data.map((source) => (
                <li key={source.id}>
                  <SourceItem siteId={site.id} source={source} />
                </li>
              ))}
            </ul>
          )}
          <Can atLeast="admin">
            <NewSource siteId={site.id} domain={site.domain} />
          </Can>
        </section>
        <PopularityTable siteId={site.id} domain={site.domain} sources={sources.data?.data ?? []} readsKey={readsKey} />
      </div>
    </Card>
  );
}
