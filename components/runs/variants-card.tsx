import type { RunDetail } from "@/components/dashboard/types";
import { Card } from "@/components/ui/card";
import { count, percent, ratio } from "./format";
import { ColumnHeads, td, tdNum } from "./run-cells";

/** Calls and hits per variant (user agent × language × cookie set × encoding): which ways of asking the cache already held. */
export function VariantsCard({ run }: { run: RunDetail }) {
  const variants = run.variants_breakdown;
  // One variant says nothing the figures above do not.
  if (variants.length < 2) return null;
  return (
    <Card title="Calls per variant" className="min-w-0">
      <div className="-mx-4 max-h-96 overflow-auto sm:mx-0">
        <table className="min-w-full divide-y divide-slate-200" data-testid="variants-breakdown">
          <thead>
            <tr>
              <ColumnHeads labels={["User agent", "Language", "Cookie set", "Encoding", "Calls", "Hits", "Hit ratio"]} numeric={["Calls", "Hits", "Hit ratio"]} />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {variants.map((v) => (
              <tr key={`${v.user_agent}|${v.language}|${v.cookie_set}|${v.encoding}`}>
                <td className={`${td} max-w-xs break-all`}>{v.user_agent}</td>
                <td className={td}>{v.language ?? "—"}</td>
                <td className={td}>{v.cookie_set ?? "—"}</td>
                <td className={`${td} font-mono`}>{v.encoding ?? "browser's"}</td>
                <td className={tdNum}>{count(v.calls)}</td>
                <td className={tdNum}>{count(v.hits)}</td>
                <td className={tdNum}>{percent(ratio(v.hits, v.calls))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
