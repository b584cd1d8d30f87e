const tones: Record<string, string> = {
  done: "bg-green-100 text-green-800",
  validated: "bg-green-100 text-green-800",
  active: "bg-green-100 text-green-800",
  live: "bg-green-100 text-green-800",
  sent: "bg-green-100 text-green-800",
  running: "bg-blue-100 text-blue-800",
  processing: "bg-blue-100 text-blue-800",
  pending: "bg-slate-100 text-slate-700",
  waiting: "bg-slate-100 text-slate-700",
  outbox: "bg-slate-100 text-slate-700",
  paused: "bg-amber-100 text-amber-800",
  stale: "bg-amber-100 text-amber-800",
  "not validated": "bg-amber-100 text-amber-800",
  revoked: "bg-slate-200 text-slate-600",
  expired: "bg-slate-200 text-slate-600",
  failed: "bg-red-100 text-red-800",
  suspended: "bg-red-100 text-red-800",
  error: "bg-red-100 text-red-800",
};

/** `meaning`: what the word means here, shown on hover and read by screen readers. */
export function StatusBadge({ status, meaning }: { status: string; meaning?: string }) {
  return (
    <span title={meaning} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${tones[status] ?? "bg-slate-100 text-slate-700"}`}>
      {status}
      {meaning ? <span className="sr-only">: {meaning}</span> : null}
    </span>
  );
}
