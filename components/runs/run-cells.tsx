import Link from "next/link";
import type { RunListItem } from "@/components/dashboard/types";
import { ProgressBar } from "@/components/ui/progress-bar";
import { isActive, plannedOrDone } from "./format";

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
const thNum = `${th} text-right`;
export const td = "px-3 py-2 align-top text-sm text-slate-700 whitespace-nowrap";
export const tdNum = `${td} text-right tabular-nums`;

/** A table's column headings, in order; the `numeric` ones align right, over their figures. */
/** `actions`: a last column of row buttons, named for screen readers only. */
export function ColumnHeads({ labels, numeric = [], actions = false }: { labels: readonly string[]; numeric?: readonly string[]; actions?: boolean }) {
  return (
    <>
      {labels.map((label) => (
        <th key={label} scope="col" className={numeric.includes(label) ? thNum : th}>
          {label}
        </th>
      ))}
      {actions && (
        <th scope="col">
          <span className="sr-only">Actions</span>
        </th>
      )}
    </>
  );
}

/** A run named by its ordinal within its boost (or its site's warms), the table's context saying which; its id stays in the URL. */
export function RunLink({ run }: { run: Pick<RunListItem, "id" | "number"> }) {
  return (
    <Link href={`/runs/${run.id}`} className="font-medium text-brand-700 hover:underline">
      Run {run.number}
    </Link>
  );
}

/**
 * The run's progress, the same bar whether it is in progress or ended (then full, or where a failed
 * or paused run stopped): the cell has a fixed size, so neither polling nor the end moves the table.
 */
export function CallsCell({ run }: { run: Pick<RunListItem, "id" | "status" | "progress" | "summary"> }) {
  const { done, total } = plannedOrDone(run);
  if (!isActive(run.status) && total === 0) return <div className="flex h-7 w-44 items-center text-xs text-slate-500">no calls made</div>;
  return (
    <div className="w-44">
      <ProgressBar done={done} total={total} label={`${isActive(run.status) ? "Progress" : "Calls"} of run ${run.id}`} />
    </div>
  );
}
