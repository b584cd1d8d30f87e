/** Fixed height and width whatever the value, so polling never moves the layout. */
export function ProgressBar({ done, total, label }: { done: number; total: number; label?: string }) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="w-full" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={label ?? "Progress"}>
      <div className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-brand-500 transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs tabular-nums text-slate-600">
        {done.toLocaleString("en")} of {total ? total.toLocaleString("en") : "…"} calls ({percent} %)
      </p>
    </div>
  );
}
