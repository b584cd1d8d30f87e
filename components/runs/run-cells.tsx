import Link from "next/link";
import type { RunListItem } from "@/components/dashboard/types";
import { ProgressBar } from "@/components/ui/progress-bar";
import { count, isActive, plannedOrDone } from "./format";

export const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 whitespace-nowrap";
export const td = "px-3 py-2 align-top text-sm text-slate-700 whitespace-nowrap";
export const tdNum = `${td} text-right tabular-nums`;
export const thNum = `${th} text-right`;

export function RunLink({ id }: { id: number }) {
  return (
    <Link href={`/runs/${id}`} className="font-medium text-brand-700 hover:underline">
      #{id}
    </Link>
  );
}

/**
 * A progress bar while the run is in progress, its call count once ended; the cell has a fixed
 * width and height so that polling never moves the table.
 */
export function CallsCell({ run }: { run: Pick<RunListItem, "id" | "status" | "progress" | "summary"> }) {
  const { done, total } = plannedOrDone(run);
  return (
    <div className="flex h-9 w-44 items-center">
      {isActive(run.status) ? (
        <ProgressBar done={done} total={total} label={`Progress of run ${run.id}`} />
      ) : (
        <span className="tabular-nums">{count(run.summary.total_calls)} calls</span>
      )}
    </div>
  );
}
