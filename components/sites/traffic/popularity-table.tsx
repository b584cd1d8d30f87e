"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "@/components/dashboard/api";
import { Can } from "@/components/dashboard/role";
import type { TrafficPage, TrafficSource } from "@/components/dashboard/types";
import { ColumnHeads, td, tdNum } from "@/components/runs/run-cells";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorNote, Loading } from "@/components/ui/card";
import { TableScroll } from "@/components/ui/table-scroll";
import { KIND_NAMES, percentText, topShare, visitCount } from "./traffic-figures";
import { downloadTrafficCsv } from "./transfers";

const LIMIT = 20;
const TOP = 10;

/**
 * The site's popularity table, most visited first, a page at a time. `readsKey` changes whenever a
 * source's read ends (or a source goes), so the table is read again then, not on every poll.
 */
export function PopularityTable({ siteId, domain, sources, readsKey }: { siteId: number; domain: string; sources: TrafficSource[]; readsKey: string | null }) {
  const [offset, setOffset] = useState(0);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const [downloading, setDownloading] = useState(false);
  const table = useQuery({
    queryKey: ["traffic", siteId, readsKey, offset],
    queryFn: () => api<TrafficPage>(`/sites/${siteId}/traffic?limit=${LIMIT}&offset=${offset}`),
    enabled: readsKey !== null,
    placeholderData: keepPreviousData,
  });
  const names = new Map(sources.map((source) => [source.id, source.name]));
  const download = () => {
    setDownloading(true);
    downloadTrafficCsv(siteId, `traffic-${domain}.csv`)
      .then(() => setDownloadError(null), setDownloadError)
      .finally(() => setDownloading(false));
  };
  const page = table.data;
  // A page beyond the table's end (a source deleted, a read that counted fewer paths): back to the first.
  useEffect(() => {
    if (page && page.data.length === 0 && page.offset > 0) setOffset(0);
  }, [page]);
  return (
    <section aria-labelledby="traffic-table" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="traffic-table" className="text-sm font-semibold text-slate-900">
          Most visited pages
        </h3>
        {page && page.total > 0 ? (
          <Button variant="secondary" busy={downloading} onClick={download}>
            Download CSV
          </Button>
        ) : null}
      </div>
      <ErrorNote error={downloadError} />
      {table.isError ? (
        <ErrorNote error={table.error} />
      ) : !page ? (
        <Loading label="Loading the popularity table…" />
      ) : page.total === 0 ? (
        <EmptyState title="No traffic data yet">
          The table fills once a source has been read.{" "}
          <Can atLeast="admin" otherwise="An admin or owner of the organization adds one: an access log, Plausible or Google Analytics 4.">
            Add one above: upload an access log, give the URL Preheat fetches it from, or connect Plausible or Google Analytics 4.
          </Can>{" "}
          Until then, boosts ordered by traffic keep their own order.
        </EmptyState>
      ) : (
        <Rows page={page} domain={domain} names={names} busy={table.isFetching} onOffset={setOffset} />
      )}
    </section>
  );
}

function Rows({ page, domain, names, busy, onOffset }: { page: TrafficPage; domain: string; names: Map<number, string>; busy: boolean; onOffset: (offset: number) => void }) {
  const share = topShare(page, TOP);
  return (
    <>
      <p className="text-sm text-slate-700">
        {visitCount(page.total)} page{page.total === 1 ? "" : "s"}, {visitCount(page.total_visits)} visit{Math.round(page.total_visits) === 1 ? "" : "s"} over the last {page.days} days.
        {share ? (
          <>
            {" "}
            In this table, the top {share.pages === 1 ? "page carries" : `${share.pages} pages carry`} <b>{percentText(share.share)}</b> of the visits.
          </>
        ) : null}
      </p>
      <TableScroll label="Most visited pages" className="-mx-4 sm:mx-0">
        <table className="min-w-full divide-y divide-slate-200" aria-busy={busy || undefined}>
          <caption className="sr-only">
            Pages of {domain} by visits over the last {page.days} days, most visited first
          </caption>
          <thead>
            <tr>
              <ColumnHeads labels={["#", "Page", "Visits", "By source"]} numeric={["#", "Visits"]} />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {page.data.map((row, index) => (
              <tr key={row.path}>
                <td className={`${tdNum} text-slate-500`}>{page.offset + index + 1}</td>
                <td className={`${td} min-w-[14rem] max-w-[32rem] whitespace-normal`}>
                  <a href={row.url} target="_blank" rel="noreferrer" className="break-all font-mono text-xs text-brand-700 hover:underline">
                    {row.path}
                  </a>
                </td>
                <td className={tdNum}>{visitCount(row.visits)}</td>
                <td className={`${td} text-xs text-slate-500`}>
                  {row.sources.map((source) => `${source.source_id === null ? KIND_NAMES.beacon : (names.get(source.source_id) ?? KIND_NAMES[source.kind])} ${visitCount(source.visits)}`).join(" · ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {page.total > page.limit ? (
        <nav aria-label="Pages of the popularity table" className="flex flex-wrap items-center gap-2">
          <Button variant="secondary" disabled={page.offset === 0} onClick={() => onOffset(Math.max(0, page.offset - page.limit))}>
            Previous
          </Button>
          <Button variant="secondary" disabled={page.offset + page.limit >= page.total} onClick={() => onOffset(page.offset + page.limit)}>
            Next
          </Button>
          <span className="text-sm text-slate-600">
            {visitCount(page.offset + 1)}–{visitCount(page.offset + page.data.length)} of {visitCount(page.total)}
          </span>
        </nav>
      ) : null}
    </>
  );
}
