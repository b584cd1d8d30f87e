import type { RunDetail } from "@/components/dashboard/types";
import { Card, EmptyState } from "@/components/ui/card";
import { count, milliseconds, percent, ratio } from "./format";
import { ColumnHeads, td, tdNum } from "./run-cells";

/** Calls per point of presence, with hits and the average time of hits against misses: the proof that a warm page is faster. */
export function PopsCard({ run }: { run: RunDetail }) {
  const pops = run.pops_breakdown;
  return (
    <Card title="Calls per PoP: cold vs warm" className="min-w-0">
      {pops.length === 0 ? (
        <EmptyState title="No point of presence seen">{run.summary.total_calls ? "The answers named no CDN point of presence." : "None until calls are answered."}</EmptyState>
      ) : (
        <div className="-mx-4 max-h-96 overflow-auto sm:mx-0">
          <table className="min-w-full divide-y divide-slate-200" data-testid="pops-breakdown">
            <thead>
              <tr>
                <ColumnHeads labels={["PoP", "Calls", "Hits", "Hit ratio", "Avg. hit", "Avg. miss"]} numeric={["Calls", "Hits", "Hit ratio", "Avg. hit", "Avg. miss"]} />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {pops.map((pop) => (
                <tr key={pop.pop}>
                  <td className={`${td} font-mono font-medium`}>{pop.pop}</td>
                  <td className={tdNum}>{count(pop.calls)}</td>
                  <td className={tdNum}>{count(pop.hits)}</td>
                  <td className={tdNum}>{percent(ratio(pop.hits, pop.calls))}</td>
                  <td className={tdNum}>{milliseconds(pop.average_hit_response_time_ms)}</td>
                  <td className={tdNum}>{milliseconds(pop.average_miss_response_time_ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
