"use client";

import { useQuery } from "@tanstack/react-query";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { api } from "@/components/dashboard/api";
import { chartColors } from "@/components/runs/run-charts";
import { Card, ErrorNote } from "@/components/ui/card";
import type { SiteFreshness } from "@/lib/freshness/history-schemas";

const CHART_HEIGHT = 180;
const axisTicks = { fontSize: 11, fill: chartColors.tick };

/** The share of the site's pages fresh at each hour's end over the last 7 days (GET /v1/sites/{siteId}/freshness). */
export function FreshnessChart({ siteId }: { siteId: number }) {
  const freshness = useQuery({ queryKey: ["sites", siteId, "freshness"], queryFn: () => api<SiteFreshness>(`/sites/${siteId}/freshness`) });
  const hours = freshness.data?.hours ?? [];
  const points = hours.map((hour) => ({
    when: new Date(hour.hour).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
    day: new Date(hour.hour).toLocaleDateString(undefined, { weekday: "short" }),
    // An hour with no page known has no share: the line breaks there rather than reading 0 %.
    fresh: hour.urls_known ? Math.round((hour.urls_fresh / hour.urls_known) * 1000) / 10 : null,
    known: hour.urls_known,
    freshCount: hour.urls_fresh,
  }));
  const share = freshness.data?.fresh_share;
  return (
    <Card title="Share of pages fresh, last 7 days">
      <ErrorNote error={freshness.error} />
      <p className="mb-2 text-xs text-slate-500">
        A page is fresh at an hour&apos;s end when the last answer Preheat got for it was still within its shared-cache lifetime then: Preheat&apos;s reading of the CDN&apos;s answers to its own
        calls, not visitors&apos; hits.
        {share === null || share === undefined ? "" : ` Over the week: ${Math.round(share * 100)} %.`}
      </p>
      {points.every((point) => point.fresh === null) ? (
        <div style={{ height: CHART_HEIGHT }} className="flex items-center justify-center rounded-md border border-dashed border-slate-300 px-4 text-center text-xs text-slate-500">
          {freshness.isPending ? "Loading…" : "No page known in the last 7 days: each warm adds its pages here, hour by hour."}
        </div>
      ) : (
        <div style={{ height: CHART_HEIGHT }} aria-hidden>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" stroke={chartColors.grid} />
              <XAxis dataKey="day" tick={axisTicks} stroke={chartColors.axis} minTickGap={24} />
              <YAxis tick={axisTicks} stroke={chartColors.axis} unit="%" domain={[0, 100]} width={56} />
              <Tooltip
                contentStyle={{ background: chartColors.surface, borderColor: chartColors.grid, color: chartColors.text }}
                formatter={(value, _name, item) => [`${value} % (${item.payload.freshCount} of ${item.payload.known})`, "Fresh"]}
                labelFormatter={(_label, payload) => `Hour from ${payload?.[0]?.payload?.when ?? ""}, at its end`}
              />
              <Line type="stepAfter" dataKey="fresh" stroke={chartColors.hits} strokeWidth={2} dot={false} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </Card>
  );
}
