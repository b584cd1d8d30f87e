import { Button } from "@/components/ui/button";

/** Newer/older paging under a newest-first list; keeps its height whatever the page. */
export function Pager({
  offset,
  limit,
  total,
  onChange,
  noun = "runs",
  labels = ["Newer", "Older"],
}: {
  offset: number;
  limit: number;
  total: number;
  onChange: (offset: number) => void;
  noun?: string;
  /** The buttons' words: backwards, forwards. */
  labels?: [string, string];
}) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <nav aria-label={`Pages of ${noun}`} className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <span className="tabular-nums">{total ? `${offset + 1}–${last} of ${total.toLocaleString("en")} ${noun}` : `No ${noun}`}</span>
      <span className="flex gap-2">
        <Button variant="secondary" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
          {labels[0]}
        </Button>
        <Button variant="secondary" disabled={last >= total} onClick={() => onChange(offset + limit)}>
          {labels[1]}
        </Button>
      </span>
    </nav>
  );
}
