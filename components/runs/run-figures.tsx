import type { RunDetail } from "@/components/dashboard/types";
import { cacheHitRatio, count, milliseconds, percent, ratio, successRate } from "./format";

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 whitespace-nowrap text-2xl font-semibold tabular-nums text-slate-900">{value}</dd>
      {hint ? <dd className="mt-0.5 text-xs tabular-nums text-slate-600">{hint}</dd> : null}
    </div>
  );
}

/**
 * Why hits were no faster than cacheable misses, when they were not: the averages are true, and a
 * reader who expects the cache to be faster deserves the likely reasons next to them.
 */
function slowHitsNote(summary: RunDetail["summary"]): string | null {
  const hit = summary.average_hit_response_time_ms;
  const miss = summary.average_miss_response_time_ms;
  if (hit === null || miss === null || hit < miss) return null;
  return `Cache hits answered no faster than cacheable misses (${milliseconds(hit)} against ${milliseconds(miss)}, over ${count(summary.cache_hits)} hits and ${count(summary.cache_misses)} misses). The averages are right: this happens when the origin answers as fast as the cache (a light page, an origin next to the PoP), when hits and misses came from different PoPs (see Calls per PoP), or when too few calls were made to compare.`;
}

/**
 * The run's headline figures, always six cards (two rows of three, three of two on a phone): each
 * says what it counts, and the counts add up with the reasons listed below them.
 */
export function RunFigures({ run }: { run: RunDetail }) {
  const { summary } = run;
  const bypassed = summary.not_cached.cdn_bypass ?? 0;
  const note = slowHitsNote(summary);
  return (
    <>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="run-figures">
        <Figure
          label="Calls"
          value={count(summary.total_calls)}
          hint={`${count(summary.successful_calls)} answered · ${count(summary.failed_calls)} failed (status 400 or more, no answer, or bot protection)`}
        />
        <Figure label="Success rate" value={percent(successRate(summary))} hint="Calls the site answered below 400, not bot protection" />
        <Figure label="Cache-hit ratio" value={percent(cacheHitRatio(summary))} hint={`${count(summary.cache_hits)} of ${count(summary.total_calls)} calls were already cached`} />
        <Figure
          label="Warm vs cold"
          value={`${milliseconds(summary.average_hit_response_time_ms)} / ${milliseconds(summary.average_miss_response_time_ms)}`}
          hint={`Average hit / average cacheable miss · every call: ${summary.total_calls ? milliseconds(summary.average_response_time_ms) : "—"}`}
        />
        {summary.verified ? (
          <Figure label="Verified hits" value={`${count(summary.verified.hits)} / ${count(summary.verified.calls)}`} hint="Cacheable misses asked again that came back a cache hit" />
        ) : (
          <Figure label="Cacheable misses" value={count(summary.cache_misses)} hint="Pages the cache did not have and stored: warmed by this run" />
        )}
        <Figure label="CDN bypass" value={count(bypassed)} hint={`${percent(ratio(bypassed, summary.total_calls))} of calls: the CDN did not try to cache them`} />
      </dl>
      {note ? (
        <p role="note" className="mt-3 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700" data-testid="slow-hits-note">
          {note}
        </p>
      ) : null}
    </>
  );
}
