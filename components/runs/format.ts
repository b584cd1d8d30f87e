import type { RunListItem } from "@/components/dashboard/types";
import { isActiveRun } from "@/lib/core/run-status";

type Summary = RunListItem["summary"];

/** The API's rule for an active run (queued or warming), so that the dashboard never has its own. */
export const isActive = isActiveRun;

/** Polls every 2 s while any of the runs is pending or running, never otherwise. */
export function pollWhileActive(statuses: string[] | undefined): number | false {
  return statuses?.some(isActive) ? 2_000 : false;
}

export function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

export function percent(value: number | null, digits = 1): string {
  return value === null ? "—" : `${(value * 100).toFixed(digits).replace(/\.0+$/, "")} %`;
}

export function milliseconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value).toLocaleString("en")} ms`;
}

export function count(value: number): string {
  return value.toLocaleString("en");
}

export function successRate(summary: Summary): number | null {
  return ratio(summary.successful_calls, summary.total_calls);
}

/** Hits among all calls, as in the report e-mails. */
export function cacheHitRatio(summary: Summary): number | null {
  return ratio(summary.cache_hits, summary.total_calls);
}

export function duration(startedAt: string | null, finishedAt: string | null): string {
  if (!startedAt || !finishedAt) return "—";
  const seconds = Math.max(0, Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A run's progress cell: a bar while it is in progress, the call count once ended. */
export function plannedOrDone(run: Pick<RunListItem, "progress" | "summary">): { done: number; total: number } {
  return { done: run.progress.completed_calls, total: Math.max(run.progress.planned_calls, run.progress.completed_calls) };
}
