"use client";

import { useQuery } from "@tanstack/react-query";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { api } from "@/components/dashboard/api";
import type { Page, RunListItem } from "@/components/dashboard/types";
import { Card, ErrorNote } from "@/components/ui/card";
import { cacheHitRatio, isActive, milliseconds, pollWhileActive, successRate } from "./format";
import { runsQueryKey } from "./run-history";

type Point = { run: string; when: string; success: number | null; hits: number | null; ms: number | null };

const CHART_HEIGHT = 180;

/** Declared in app/globals.css, through the palette: the charts follow the theme as the classes do. */
export const chartColors = {
  grid: "var(--color-chart-grid)",
  axis: "var(--color-chart-axis)",
  tick: "var(--color-chart-tick)",
  surface: "var(--color-chart-surface)",
  text: "var(--color-chart-text)",
  success: "var(--color-chart-success)",
  hits: "var(--color-chart-hits)",
  time: "var(--color-chart-time)",
};
const axisTicks = { fontSize: 11, fill: chartColors.tick };

function toPoints(runs: RunListItem[]): Point[] {
  return runs
    .filter((run) => !isActive(run.status) && run.summary.total_calls > 0)
    .reverse()
    .map((run) => {
      const success = successRate(run.summary);
      const hits = cacheHitRatio(run.summary);
      const when = run.finished_at ?? run.started_at ?? run.created_at;
      return {
        run: `#${run.number}`,
        when: new Date(when).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
        success: success === null ? null : Math.round(success * 1000) / 10,
        hits: hits === null ? null : Math.round(hits * 1000) / 10,
        ms: run.summary.average_response_time_ms,
      };
    });
}

function Chart({
  title,
  points,
  dataKey,
  unit,
  color,
  format,
  domain,
  state,
}: {
  title: string;
  points: Point[];
  dataKey: "success" | "hits" | "ms";
  unit: string;
  color: string;
  format: (value: number) => string;
  domain?: [number, number];
  state: "loading" | "ready";
}) {
  const latest = points.at(-1)?.[dataKey];
  return (
    <figure className="min-w-0">
      <h3 className="text-sm font-semibold text-slate-800">{title}</h3>
      <p className="mb-2 text-xs text-slate-500">
        {points.length ? `Latest: ${latest === null || latest === undefined ? "—" : format(latest)} · ${points.length} run${points.length === 1 ? "" : "s"}` : "\u00a0"}
      </p>
      {points.length === 0 ? (
        <div style={{ height: CHART_HEIGHT }} className="flex items-center justify-center rounded-md border border-dashed border-slate-300 px-4 text-center text-xs text-slate-500">
          {state === "loading" ? "Loading…" : "No finished run with calls yet: each one adds a point here."}
        </div>
      ) : (
        <div style={{ height: CHART_HEIGHT }} aria-hidden>
          <ResponsiveContainer width="100%" height="100%">
            {/* Hidden from screen readers (the latest figure is written above): without recharts' keyboard layer, nothing in it takes focus either. */}
            <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" stroke={chartColors.grid} />
              <XAxis dataKey="run" tick={axisTicks} stroke={chartColors.axis} minTickGap={12} />
              <YAxis tick={axisTicks} stroke={chartColors.axis} unit={unit} domain={domain ?? [0, "auto"]} width={56} />
              <Tooltip
                contentStyle={{ background: chartColors.surface, borderColor: chartColors.grid, color: chartColors.text }}
                formatter={(value) => [format(Number(value)), title]}
                labelFormatter={(label, payload) => `Run ${label}${payload?.[0]?.payload?.when ? ` · ${payload[0].payload.when}` : ""}`}
              />
              <Line type="monotone" dataKey={dataKey} stroke={color} strokeWidth={2} dot={{ r: 3, fill: chartColors.surface }} isAnimationActive={false} connectNulls />
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}

/** Success rate, cache-hit ratio and response time over the boost's last 100 ended runs, one point per run. */
export function RunCharts({ boostId }: { boostId: number }) {
  const runs = useQuery({
    queryKey: [...runsQueryKey(boostId), "chart"],
    queryFn: () => api<Page<RunListItem>>(`/runs?boost_id=${boostId}&limit=100`),
    refetchInterval: (query) => pollWhileActive(query.state.data?.data.map((run) => run.status)),
  });
  const points = runs.data ? toPoints(runs.data.data) : [];
  const state = runs.isPending ? "loading" : "ready";
  return (
    <Card title="Trends">
      <ErrorNote error={runs.error} />
      <div className="grid gap-6 md:grid-cols-3">
        <Chart title="Success rate" state={state} points={points} dataKey="success" unit="%" color={chartColors.success} format={(v) => `${v} %`} domain={[0, 100]} />
        <Chart title="Cache-hit ratio" state={state} points={points} dataKey="hits" unit="%" color={chartColors.hits} format={(v) => `${v} %`} domain={[0, 100]} />
        <Chart title="Response time" state={state} points={points} dataKey="ms" unit=" ms" color={chartColors.time} format={(v) => milliseconds(v)} />
      </div>
    </Card>
  );
}
