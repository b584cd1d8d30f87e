"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { api } from "@/components/dashboard/api";
import { Can } from "@/components/dashboard/role";
import type { TrafficSource } from "@/components/dashboard/types";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FieldNotes } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { byteSize, isFetched, KIND_NAMES, scheduleText, STATUS_MEANINGS, visitCount } from "./traffic-figures";
import { type UploadProgress, uploadTrafficLog } from "./transfers";

type SourceList = { data: TrafficSource[] };

export const trafficSourcesQueryKey = (siteId: number) => ["traffic-sources", siteId] as const;

/** One traffic source: its settings (never a key), its last read's status, message and counts, and, for admins, reading, uploading and deleting it. */
export function SourceItem({ siteId, source }: { siteId: number; source: TrafficSource }) {
  const queryClient = useQueryClient();
  const path = `/sites/${siteId}/traffic-sources/${source.id}`;
  const replace = (updated: TrafficSource) => {
    queryClient.setQueryData<SourceList>(trafficSourcesQueryKey(siteId), (list) => (list ? { data: list.data.map((item) => (item.id === updated.id ? updated : item)) } : list));
    void queryClient.invalidateQueries({ queryKey: trafficSourcesQueryKey(siteId) });
  };
  const read = useMutation({ mutationFn: () => api<TrafficSource>(`${path}/read`, { method: "POST" }), onSuccess: replace });
  const remove = useMutation({
    mutationFn: () => api(path, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trafficSourcesQueryKey(siteId) }),
  });
  const reading = source.status === "reading";
  return (
    <article className="space-y-3 rounded-md border border-slate-200 p-3 sm:p-4" data-testid="traffic-source" aria-label={`${KIND_NAMES[source.kind]} source ${source.name}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h4 className="break-words font-semibold text-slate-900">{source.name}</h4>
          <span className="text-sm text-slate-500">{KIND_NAMES[source.kind]}</span>
          <StatusBadge status={source.status} meaning={STATUS_MEANINGS[source.status]} />
          {reading ? <span className="size-3 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" aria-hidden /> : null}
        </div>
        <Can atLeast="admin">
          <div className="flex flex-wrap gap-2">
            {isFetched(source) ? (
              <Button variant="secondary" busy={read.isPending} disabled={reading} onClick={() => read.mutate()}>
                {reading ? "Reading…" : "Read now"}
              </Button>
            ) : null}
            <ConfirmButton
              label="Delete"
              confirmLabel="Delete the source"
              question="The visits it counted leave the popularity table. Delete?"
              busy={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </div>
        </Can>
      </div>
      <ErrorNote error={read.error ?? remove.error} />
      {source.message ? (
        <p className={`text-sm ${source.status === "failed" ? "text-red-700" : "text-slate-700"}`} aria-live="polite">
          {source.message}
        </p>
      ) : source.status === "never" && !isFetched(source) ? (
        <p className="text-sm text-slate-600">
          <Can atLeast="admin" otherwise="Waiting for its first log, which an admin or owner uploads.">
            Waiting for its first log: upload one below, or send it with POST …/traffic-sources/{source.id}/upload.
          </Can>
        </p>
      ) : null}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Settings source={source} />
        <Figure label="Read">{scheduleText(source)}</Figure>
        <Figure label="Last read">
          <LocalTime value={source.last_read_at} empty="never" />
        </Figure>
        {isFetched(source) ? (
          <Figure label="Next scheduled read">
            {source.next_read_at ? <LocalTime value={source.next_read_at} /> : <span className="text-slate-500">{reading ? "once this read ends" : "none: on demand only"}</span>}
          </Figure>
        ) : null}
        {source.latest_day ? <Figure label="Newest day of visits">{source.latest_day} (its 30 days end there)</Figure> : null}
      </dl>
      {source.counts ? <Counts source={source} counts={source.counts} /> : null}
      {source.kind === "access_log" ? (
        <Can atLeast="admin">
          <Upload path={path} onUploaded={replace} />
        </Can>
      ) : null}
    </article>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-800">{children}</dd>
    </div>
  );
}

/** What is not secret of each kind's settings: the keys themselves never leave the server. */
function Settings({ source }: { source: TrafficSource }) {
  const { settings } = source;
  switch (source.kind) {
    case "access_log":
      return <Figure label="Log URL">{settings.url ? <span className="break-all font-mono text-xs">{settings.url}</span> : "None: uploaded only"}</Figure>;
    case "plausible":
      return (
        <>
          <Figure label="Plausible site id">{settings.site_id ?? "—"}</Figure>
          <Figure label="API key">kept sealed, never shown</Figure>
        </>
      );
    case "ga4":
      return (
        <>
          <Figure label="GA4 property id">{settings.property_id ?? "—"}</Figure>
          <Figure label="Service account">
            <span className="break-all">{settings.client_email ?? "—"}</span> <span className="text-slate-500">(key kept sealed)</span>
          </Figure>
        </>
      );
  }
}

const SKIP_REASONS: { key: keyof NonNullable<TrafficSource["counts"]>["skipped"]; label: string }[] = [
  { key: "method", label: "not a GET" },
  { key: "status", label: "not a success" },
  { key: "host", label: "another host" },
  { key: "asset", label: "assets" },
  { key: "bot", label: "bots" },
];

/** What the last read that stored visits counted; a log's lines line by line, an analytics read's rows. */
function Counts({ source, counts }: { source: TrafficSource; counts: NonNullable<TrafficSource["counts"]> }) {
  const log = source.kind === "access_log";
  const skipped = SKIP_REASONS.filter((reason) => counts.skipped[reason.key] > 0);
  return (
    <div className="rounded-md bg-slate-50 p-3 text-sm">
      <h5 className="sr-only">What the last read counted</h5>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4">
        <Figure label="Visits counted">{visitCount(counts.counted)}</Figure>
        <Figure label={log ? "Lines" : "Rows"}>{visitCount(counts.lines)}</Figure>
        <Figure label="Paths">{visitCount(counts.paths)}</Figure>
        {log ? <Figure label="Broken lines">{visitCount(counts.broken)}</Figure> : null}
      </dl>
      {log ? (
        <p className="mt-2 text-slate-700">
          {counts.format ? (
            <>
              Format recognised: <b>{counts.format}</b>.{" "}
            </>
          ) : null}
          Left out: {skipped.length ? skipped.map((reason) => `${visitCount(counts.skipped[reason.key])} ${reason.label}`).join(", ") : "nothing"}.
        </p>
      ) : null}
      {counts.truncated ? <p className="mt-2 text-amber-800">The log held more distinct paths than a read keeps: the least visited were dropped, and their visits are not counted.</p> : null}
    </div>
  );
}

/** An access log sent from this browser, with the bytes sent, then the counts its read came to. */
function Upload({ path, onUploaded }: { path: string; onUploaded: (source: TrafficSource) => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      controller.current = new AbortController();
      setProgress({ sent: 0, total: chosen.size });
      return uploadTrafficLog(`${path}/upload`, chosen, setProgress, controller.current.signal);
    },
    onSuccess: (source) => {
      onUploaded(source);
      setFile(null);
      if (input.current) input.current.value = "";
    },
    onSettled: () => setProgress(null),
  });
  // Leaving the page stops an upload under way rather than letting it run unseen.
  useEffect(() => () => controller.current?.abort(), []);
  const cancelled = upload.error instanceof DOMException && upload.error.name === "AbortError";
  const result = upload.data?.counts;
  return (
    <div className="space-y-2 border-t border-slate-100 pt-3">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Upload a log
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={input}
          id={id}
          type="file"
          aria-describedby={`${id}-hint`}
          disabled={upload.isPending}
          className="block min-w-0 max-w-full text-sm text-slate-600 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 file:shadow-sm hover:file:bg-slate-50"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            upload.reset();
          }}
        />
        {upload.isPending ? (
          <Button variant="ghost" onClick={() => controller.current?.abort()}>
            Cancel upload
          </Button>
        ) : (
          <Button variant="secondary" disabled={!file} onClick={() => file && upload.mutate(file)}>
            Upload
          </Button>
        )}
      </div>
      <FieldNotes
        id={id}
        hint="Plain or gzip (.log, .gz, .txt, JSON lines, a rotated access.log.1): nginx's and Apache's Combined or Common format, Caddy, Cloudflare Logpush or CloudFront. Its days replace the same days of earlier uploads, so a log sent twice counts once."
      />
      {progress ? <UploadBar progress={progress} /> : null}
      {cancelled ? (
        <p role="status" className="text-sm text-slate-600">
          Upload cancelled.
        </p>
      ) : (
        <ErrorNote error={upload.error} />
      )}
      {upload.isSuccess && result ? (
        <p role="status" className="text-sm text-emerald-700">
          Read: {visitCount(result.counted)} visit{result.counted === 1 ? "" : "s"} counted on {visitCount(result.paths)} path{result.paths === 1 ? "" : "s"}, from {visitCount(result.lines)} line
          {result.lines === 1 ? "" : "s"}
          {result.broken ? ` (${visitCount(result.broken)} broken)` : ""}.
        </p>
      ) : null}
    </div>
  );
}

function UploadBar({ progress }: { progress: UploadProgress }) {
  const percent = progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  const sent = progress.sent >= progress.total;
  return (
    <div className="w-full max-w-md" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Log upload">
      <div className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-brand-500 transition-[width] duration-300" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs tabular-nums text-slate-600">
        {sent ? "Sent: reading its last lines…" : `${byteSize(progress.sent)} of ${byteSize(progress.total)} sent (${percent} %), read as it arrives`}
      </p>
    </div>
  );
}
