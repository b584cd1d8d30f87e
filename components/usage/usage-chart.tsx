import type { Usage } from "@/components/dashboard/types";

const n = (value: number) => value.toLocaleString("en");

/** "Nov 3": a UTC day as the axis and the tooltips say it. */
function dayLabel(date: string, year = false): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString("en", { timeZone: "UTC", month: "short", day: "numeric", ...(year ? { year: "numeric" } : {}) });
}

/** The axis' top: the maximum rounded up to 1, 2 or 5 × a power of ten. */
function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

/** One column per day in the SVG's own units; the SVG stretches to the card's width. */
const SLOT = 10;
const HEIGHT = 100;

/**
 * Calls per day as bars (each with its figure as a tooltip), summed up for screen readers in the
 * image's label, and every figure in a table below.
 */
export function UsageChart({ days, total }: { days: Usage["days"]; total: number }) {
  const max = Math.max(0, ...days.map((day) => day.calls));
  const top = niceTop(max);
  const busiest = days.find((day) => day.calls === max);
  const first = days[0]?.date ?? "";
  const last = days.at(-1)?.date ?? "";
  const summary = `Calls per day from ${dayLabel(first, true)} to ${dayLabel(last, true)} (UTC): ${n(total)} in all${busiest && max > 0 ? `, the most on ${dayLabel(busiest.date)} with ${n(max)}` : ""}.`;
  return (
    <figure data-testid="usage-chart" className="space-y-2">
      <figcaption className="text-sm text-slate-600">
        <strong className="text-slate-900">{n(total)}</strong> calls from {dayLabel(first, true)} to {dayLabel(last, true)} (UTC days).
      </figcaption>
      <div className="flex gap-2">
        <div aria-hidden className="flex h-44 w-16 shrink-0 flex-col justify-between text-right text-xs tabular-nums text-slate-500">
          <span className="-translate-y-1/2">{n(top)}</span>
          <span>{n(top / 2)}</span>
          <span className="translate-y-1/2">0</span>
        </div>
        <svg role="img" aria-label={summary} viewBox={`0 0 ${days.length * SLOT} ${HEIGHT}`} preserveAspectRatio="none" className="h-44 min-w-0 flex-1 overflow-visible">
          {[0, HEIGHT / 2, HEIGHT].map((y) => (
            <line key={y} x1={0} x2={days.length * SLOT} y1={y} y2={y} className="stroke-slate-200" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          ))}
          {days.map((day, index) => {
            const height = (day.calls / top) * HEIGHT;
            return (
              <g key={day.date}>
                <title>{`${dayLabel(day.date, true)}: ${n(day.calls)} calls`}</title>
                {/* The whole column answers the pointer, so that a day with few calls still shows its figure. */}
                <rect x={index * SLOT} y={0} width={SLOT} height={HEIGHT} fill="transparent" />
                {day.calls > 0 ? <rect x={index * SLOT + 1} y={HEIGHT - Math.max(height, 0.75)} width={SLOT - 2} height={Math.max(height, 0.75)} className="fill-brand-500" /> : null}
              </g>
            );
          })}
        </svg>
      </div>
      <div aria-hidden className="ml-[4.5rem] flex justify-between text-xs text-slate-500">
        <span>{dayLabel(first)}</span>
        {days.length > 2 ? <span>{dayLabel(days[Math.floor(days.length / 2)]!.date)}</span> : null}
        <span>{dayLabel(last)}</span>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900">Show the figures as a table</summary>
        <div className="mt-2 max-h-72 overflow-y-auto">
          <table className="min-w-[16rem] text-sm tabular-nums">
            <caption className="sr-only">Calls per day (UTC)</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-6 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                  Day (UTC)
                </th>
                <th scope="col" className="py-1 text-right text-xs font-semibold uppercase tracking-wide text-slate-500">
                  Calls
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {days.map((day) => (
                <tr key={day.date}>
                  <td className="py-1 pr-6 text-slate-700">{day.date}</td>
                  <td className="py-1 text-right text-slate-700">{n(day.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
