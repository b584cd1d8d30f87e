"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { api } from "@/components/dashboard/api";
import { chartColors } from "@/components/runs/run-charts";
import { Card, ErrorNote } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { TableScroll } from "@/components/ui/table-scroll";
import type { SiteFreshness } from "@/lib/freshness/history-schemas";
import type { SiteField } from "@/lib/traffic/field/field-schemas";
import { GUIDE_PATHS } from "@/lib/core/guide-paths";

const CHART_HEIGHT = 180;
const axisTicks = { fontSize: 11, fill: chartColors.tick };
const DAYS = 7;
const HOUR_MS = 3_600_000;

type Figures = SiteField["totals"];

const percent = (ratio: number | null) => (ratio === null ? "—" : `${Math.round(ratio * 1000) / 10} %`);
const ms = (value: number | null) => (value === null ? "—" : `${value.toLocaleString()} ms`);

/** The period asked for: the last 7 days, as the freshness chart beside it (its query key is the hour, so that a minute's refetch shares it). */
function lastDays(): string {
  const to = Math.ceil(Date.now() / HOUR_MS) * HOUR_MS;
  return `from=${new Date(to - DAYS * 24 * HOUR_MS).toISOString()}&to=${new Date(to).toISOString()}`;
}

/** The tag to paste, with its copy button. */
function Snippet({ tag }: { tag: string }) {
  return (
    <div className="space-y-2">
      <pre className="whitespace-pre-wrap break-all rounded-md bg-slate-100 p-3 text-xs text-slate-800" data-testid="beacon-tag">
        <code>{tag}</code>
      </pre>
      <CopyButton value={tag} label="Copy the tag" />
    </div>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-md border border-slate-200 p-3">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900">{value}</dd>
      {note ? <dd className="text-xs text-slate-500">{note}</dd> : null}
    </div>
  );
}

function BreakdownTable({ label, rows }: { label: string; rows: { name: string; figures: Figures }[] }) {
  if (!rows.length) return null;
  return (
    <TableScroll label={label} className="min-w-0">
      <table className="w-full min-w-[28rem] text-left text-sm">
        <caption className="mb-1 text-left text-xs font-medium text-slate-600">{label}</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1 pr-3 font-medium" scope="col">
              {label.startsWith("By device") ? "Device" : "PoP country"}
            </th>
            <th className="py-1 pr-3 text-right font-medium" scope="col">
              Views
            </th>
            <th className="py-1 pr-3 text-right font-medium" scope="col">
              Hit ratio
            </th>
            <th className="py-1 pr-3 text-right font-medium" scope="col">
              TTFB p50
            </th>
            <th className="py-1 text-right font-medium" scope="col">
              TTFB p75
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ name, figures }) => (
            <tr key={name} className="border-t border-slate-100 text-slate-800">
              <th className="py-1 pr-3 font-normal" scope="row">
                {name}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{figures.views.toLocaleString()}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{percent(figures.hit_ratio)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{ms(figures.ttfb_p50_ms)}</td>
              <td className="py-1 text-right tabular-nums">{ms(figures.ttfb_p75_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * What the site's visitors got from the CDN (GET /v1/sites/{siteId}/field, the beacon's page views) over the
 * last 7 days, beside Preheat's own reading of the same pages (the share fresh, GET …/freshness): their hit
 * ratio hour by hour, their time to first byte, and the tag that reports them. Read-only: every role sees it.
 */
export function FieldPanel({ siteId, domain }: { siteId: number; domain: string }) {
  const [period] = useState(lastDays);
  const field = useQuery({ queryKey: ["sites", siteId, "field", period], queryFn: () => api<SiteField>(`/sites/${siteId}/field?${period}`), refetchInterval: 60_000 });
  const freshness = useQuery({ queryKey: ["sites", siteId, "freshness"], queryFn: () => api<SiteFreshness>(`/sites/${siteId}/freshness`) });
  const data = field.data;
  const freshByHour = new Map((freshness.data?.hours ?? []).map((hour) => [hour.hour, hour.urls_known ? Math.round((hour.urls_fresh / hour.urls_known) * 1000) / 10 : null]));
  const points = (data?.hours ?? []).map((hour) => ({
    when: new Date(hour.hour).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
    day: new Date(hour.hour).toLocaleDateString(undefined, { weekday: "short" }),
    visitors: hour.hit_ratio === null ? null : Math.round(hour.hit_ratio * 1000) / 10,
    fresh: freshByHour.get(hour.hour) ?? null,
    views: hour.views,
    p50: hour.ttfb_p50_ms,
  }));
  const totals = data?.totals;
  const sampled = data && data.sample_rate < 1 ? `A sample: ${Math.round(data.sample_rate * 1000) / 10} % of views are counted.` : undefined;
  return (
    <Card title="Visitors (field data)">
      <ErrorNote error={field.error} />
      <p className="mb-3 text-sm text-slate-600">
        What your visitors got from the CDN over the last {DAYS} days, as the beacon on your pages reports it: whether the CDN answered from its cache (its Server-Timing header says so) and how long
        their browser waited for the first byte.{" "}
        <Link href={GUIDE_PATHS.beacon} className="text-sky-700 underline">
          How the beacon works and how to turn on Server-Timing on your CDN
        </Link>
        .
      </p>
      {!data ? (
        <p className="text-sm text-slate-500">{field.isPending ? "Loading…" : ""}</p>
      ) : totals && totals.views === 0 ? (
        <div className="space-y-3 rounded-md border border-dashed border-slate-300 p-4" data-testid="field-empty">
          <p className="text-sm font-medium text-slate-700">No page view reported in the last {DAYS} days.</p>
          <p className="text-sm text-slate-600">
            Add this tag to the pages of {domain} (in the <code>&lt;head&gt;</code> of every page), then have your CDN send its cache verdict in Server-Timing. Views appear here within a minute. It
            sets no cookie and sends nothing for visitors who ask not to be tracked.
          </p>
          <Snippet tag={data.script_tag} />
        </div>
      ) : (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="field-totals">
            <Figure label="Visitors' hit ratio" value={percent(totals!.hit_ratio)} note={`${(totals!.hits + totals!.misses).toLocaleString()} views with a verdict`} />
            <Figure label="TTFB, median" value={ms(totals!.ttfb_p50_ms)} note="± 2.5 %" />
            <Figure label="TTFB, 75th percentile" value={ms(totals!.ttfb_p75_ms)} note="± 2.5 %" />
            <Figure label="Page views" value={totals!.views.toLocaleString()} note={sampled ?? (totals!.unknown ? `${totals!.unknown.toLocaleString()} without a verdict` : undefined)} />
          </dl>
          <div style={{ height: CHART_HEIGHT }} aria-hidden>
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" stroke={chartColors.grid} />
                <XAxis dataKey="day" tick={axisTicks} stroke={chartColors.axis} minTickGap={24} />
                <YAxis tick={axisTicks} stroke={chartColors.axis} unit="%" domain={[0, 100]} width={56} />
                <Tooltip
                  contentStyle={{ background: chartColors.surface, borderColor: chartColors.grid, color: chartColors.text }}
                  formatter={(value, name, item) => (name === "Visitors' hit ratio" ? [`${value} % of ${item.payload.views} views (TTFB median ${ms(item.payload.p50)})`, name] : [`${value} %`, name])}
                  labelFormatter={(_label, payload) => `Hour from ${payload?.[0]?.payload?.when ?? ""}`}
                />
                <Legend wrapperStyle={{ fontSize: 11, color: chartColors.text }} />
                <Line name="Visitors' hit ratio" type="stepAfter" dataKey="visitors" stroke={chartColors.hits} strokeWidth={2} dot={{ r: 2 }} isAnimationActive={false} connectNulls={false} />
                <Line name="Pages fresh (Preheat's reading)" type="stepAfter" dataKey="fresh" stroke={chartColors.time} strokeWidth={2} strokeDasharray="4 3" dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
          <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
            <BreakdownTable label="By device" rows={data.devices.map((row) => ({ name: row.device, figures: row }))} />
            <BreakdownTable label="By PoP country (where the CDN names its PoP)" rows={data.pop_regions.map((row) => ({ name: row.country, figures: row }))} />
          </div>
          <details className="text-sm text-slate-600">
            <summary className="cursor-pointer">The tag on your pages</summary>
            <div className="mt-2">
              <Snippet tag={data.script_tag} />
            </div>
          </details>
        </div>
      )}
    </Card>
  );
}
